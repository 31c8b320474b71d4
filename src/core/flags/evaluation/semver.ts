// semver_* operators as the Rust service reads versions (property_matching.rs
// to_semver_representation): a leading "v" dropped, missing minor/patch padded with 0, leading zeros
// stripped, then strict semver; requirements (~, ^, wildcards) with the `semver` crate's rules.

interface Version { major: number; minor: number; patch: number; pre: string[]; build: string[] }

const IDENT = /^[0-9A-Za-z-]+$/;

function stripZeros(part: string): string {
  if (part === '' || !/^\d+$/.test(part)) return part;
  return part.replace(/^0+/, '') || '0';
}

/** "3.08" -> "3.8.0", keeping a "-pre" / "+build" suffix untouched. */
export function canonicalVersion(text: string): string {
  const cut = text.search(/[-+]/);
  const [core, suffix] = cut === -1 ? [text, ''] : [text.slice(0, cut), text.slice(cut)];
  const parts = core.split('.').map(stripZeros);
  while (parts.length < 3) parts.push('0');
  return parts.join('.') + suffix;
}

const normalize = (text: string): string => (text.startsWith('v') ? text.slice(1) : text).trim();

function parseStrict(text: string): Version | null {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([^+]+))?(?:\+(.+))?$/.exec(text);
  if (!match) return null;
  const pre = match[4] ? match[4].split('.') : [];
  const build = match[5] ? match[5].split('.') : [];
  if (!pre.every((id) => IDENT.test(id) && !/^0\d+$/.test(id)) || !build.every((id) => IDENT.test(id))) return null;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (![major, minor, patch].every(Number.isSafeInteger)) return null;
  return { major, minor, patch, pre, build };
}

export function parseVersion(value: unknown): Version | null {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return parseStrict(canonicalVersion(normalize(text)));
}

function compareIdentifiers(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const [x, y] = [a[i]!, b[i]!];
    const [xn, yn] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xn && yn) { if (Number(x) !== Number(y)) return Number(x) < Number(y) ? -1 : 1; continue; }
    if (xn !== yn) return xn ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** Total order of the `semver` crate: numbers, then pre-release (none sorts last), then build. */
export function compareVersions(a: Version, b: Version): number {
  for (const part of ['major', 'minor', 'patch'] as const) if (a[part] !== b[part]) return a[part] < b[part] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) {
    if (a.pre.length !== b.pre.length) return a.pre.length === 0 ? 1 : -1;
  } else {
    const pre = compareIdentifiers(a.pre, b.pre);
    if (pre !== 0) return pre;
  }
  return compareIdentifiers(a.build, b.build);
}

interface Range { lower: Version | null; upper: Version | null }

const version = (major: number, minor: number, patch: number): Version => ({ major, minor, patch, pre: [], build: [] });

/** Lower bound inclusive, upper exclusive. */
function inRange(candidate: Version, range: Range): boolean {
  if (range.lower && compareVersions(candidate, range.lower) < 0) return false;
  if (range.upper && compareVersions(candidate, range.upper) >= 0) return false;
  // The crate lets a pre-release through only when the bound names the same version with a pre-release.
  if (candidate.pre.length > 0) {
    const low = range.lower;
    if (!low || low.pre.length === 0 || low.major !== candidate.major || low.minor !== candidate.minor || low.patch !== candidate.patch) return false;
  }
  return true;
}

function caretRange(parts: number[], lower: Version): Range {
  const [major, minor, patch] = parts;
  if (minor === undefined) return { lower, upper: version(major! + 1, 0, 0) };
  if (major! > 0) return { lower, upper: version(major! + 1, 0, 0) };
  if (patch === undefined || minor > 0) return { lower, upper: version(0, minor + 1, 0) };
  return { lower, upper: version(0, 0, patch + 1) };
}

/** The range a semver_tilde / semver_caret / semver_wildcard filter value stands for, or null if invalid. */
export function requirementRange(operator: 'semver_tilde' | 'semver_caret' | 'semver_wildcard', filterValue: unknown): Range | null {
  const text = normalize(typeof filterValue === 'string' ? filterValue : JSON.stringify(filterValue) ?? '');
  if (operator !== 'semver_wildcard') {
    const lower = parseStrict(canonicalVersion(text));
    if (!lower) return null;
    if (operator === 'semver_tilde') return { lower, upper: version(lower.major, lower.minor + 1, 0) };
    return caretRange([lower.major, lower.minor, lower.patch], lower);
  }
  const parts = text.split('.').map(stripZeros).map((part) => (part === '*' ? 'x' : part));
  if (parts.length > 3 || parts.some((part) => !/^(x|X|0|[1-9]\d*)$/.test(part))) return null;
  const wild = parts.findIndex((part) => part === 'x' || part === 'X');
  if (wild !== -1 && parts.slice(wild).some((part) => part !== 'x' && part !== 'X')) return null;
  const fixed = (wild === -1 ? parts : parts.slice(0, wild)).map(Number);
  if (fixed.length === 0) return { lower: null, upper: null };
  const lower = version(fixed[0]!, fixed[1] ?? 0, fixed[2] ?? 0);
  if (wild === -1) return caretRange(fixed, lower);
  return fixed.length === 1 ? { lower, upper: version(fixed[0]! + 1, 0, 0) } : { lower, upper: version(fixed[0]!, fixed[1]! + 1, 0) };
}

export function satisfies(candidate: Version, range: Range): boolean {
  if (range.lower === null && range.upper === null) return candidate.pre.length === 0;
  return inRange(candidate, range);
}
