// Content negotiation for the files Hoglet serves compressed (the web app's index.html,
// posthog-js's scripts): br before gzip before identity, as the request's Accept-Encoding allows
// (q-values honoured, `*` standing for any encoding the header does not name, q=0 refusing one).

export type Encoding = 'br' | 'gzip';

/** The encoding to send, of those `available` (in the server's order of preference), or null for identity. */
export function pickEncoding(header: string | string[] | undefined, available: readonly Encoding[]): Encoding | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Whether If-None-Match names this ETag (or is `*`); weak and strong forms compare equal, as for GET. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  const text = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (!text) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return text.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
