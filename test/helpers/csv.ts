// Reads CSV back the way a spreadsheet would: quoted cells may hold commas, doubled quotes and
// line breaks; records end in \r\n (a bare \n outside quotes is a bug in the writer).
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let started = false; // an empty line is a record with no cells; `""` is one empty cell
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') {
        cell += c;
      } else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else {
        quoted = false;
      }
      continue;
    }
    if (c === '\r' && text[i + 1] === '\n') {
      if (started) row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      started = false;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') throw new Error(`bare line break at ${i}`);
    started = true;
    if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  if (quoted || started) throw new Error('last record is not terminated');
  return rows;
}

// Rows as objects keyed by the header, as a person reading the sheet would match them up.
export function records(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
}
