// A tiny MaxMind DB (.mmdb) file written by the test: IPv4 /8 networks holding a record each, in the
// format MaxMind publishes (binary search tree of 24-bit records, 16 zero bytes, the data section,
// then the metadata after its marker). It lets the tests read an operator's own MaxMind-layout file
// without shipping MaxMind's data.

type Value = string | number | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  const head = size < 29 ? [size] : [29, size - 29];
  // Types above 7 are "extended": type bits 0, the type less 7 in the byte after the size bits.
  if (type <= 7) return Buffer.from([(type << 5) | head[0]!, ...head.slice(1)]);
  return Buffer.from([head[0]!, type - 7, ...head.slice(1)]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(3, 8), bytes]);
  }
  if (typeof value === 'number') {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    const trimmed = bytes.subarray(bytes.findIndex((b, i) => b !== 0 || i === 3));
    return Buffer.concat([control(6, value === 0 ? 0 : trimmed.length), value === 0 ? Buffer.alloc(0) : trimmed]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** An IPv4 database that answers each record for every address whose first octet is its key. */
export function mmdbByFirstOctet(records: Record<number, Value>, databaseType = 'GeoIP2-City'): Buffer {
  // The search tree: a binary trie over the first 8 bits; a record is a node number, the node
  // count (nothing here) or node count + 16 + the record's offset in the data section.
  const nodes: Array<[number | null, number | null]> = [[null, null]];
  const data: Buffer[] = [];
  let dataOffset = 0;
  const leaves: Array<{ node: number; side: 0 | 1; offset: number }> = [];
  for (const [octet, record] of Object.entries(records)) {
    let node = 0;
    for (let depth = 0; depth < 8; depth++) {
      const side = ((Number(octet) >> (7 - depth)) & 1) as 0 | 1;
      if (depth === 7) {
        leaves.push({ node, side, offset: dataOffset });
        break;
      }
      node = nodes[node]![side] ??= nodes.push([null, null]) - 1;
    }
    const bytes = encode(record);
    data.push(bytes);
    dataOffset += bytes.length;
  }
  const nodeCount = nodes.length;
  for (const { node, side, offset } of leaves) nodes[node]![side] = nodeCount + 16 + offset;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(left ?? nodeCount, i * 6, 3);
    tree.writeUIntBE(right ?? nodeCount, i * 6 + 3, 3);
  });
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: databaseType,
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000,
    description: { en: 'Hoglet test database' },
  });
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);
  return Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]);
}
