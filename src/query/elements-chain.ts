// An autocapture `elements_chain` as PostHog's element objects (its chain_to_elements and
// ElementSerializer): elements separated by ';', each `tag.class1.class2:attr="value"...`, with
// href, text, nth-child, nth-of-type and attr_id taken out and `attr__*` kept as attributes.

export interface ChainElement {
  event: null;
  text: string | null;
  tag_name: string | null;
  attr_class: string[] | null;
  href: string | null;
  attr_id: string | null;
  nth_child: number | null;
  nth_of_type: number | null;
  attributes: Record<string, string>;
  order: number;
}

/** Splits on `separator` outside double quotes. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

const ATTRIBUTE = /([\w-]+)="((?:\\"|[^"])*)"/g;

export function chainToElements(chain: string): ChainElement[] {
  if (chain.trim() === '') return [];
  return splitOutsideQuotes(chain, ';').map((part, order) => {
    const colon = splitOutsideQuotes(part, ':');
    const head = colon[0] ?? '';
    const rest = colon.slice(1).join(':');
    const [tag, ...classes] = head.split('.');
    const element: ChainElement = {
      event: null, text: null, tag_name: tag || null, attr_class: classes.length > 0 ? classes.filter(Boolean) : null,
      href: null, attr_id: null, nth_child: null, nth_of_type: null, attributes: {}, order,
    };
    for (const [, key, raw] of rest.matchAll(ATTRIBUTE)) {
      const value = raw!.replace(/\\"/g, '"');
      if (key === 'href') element.href = value;
      else if (key === 'text') element.text = value;
      else if (key === 'attr_id') element.attr_id = value;
      else if (key === 'nth-child') element.nth_child = Number(value);
      else if (key === 'nth-of-type') element.nth_of_type = Number(value);
      else element.attributes[key!] = value;
    }
    return element;
  });
}
