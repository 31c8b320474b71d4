// Input the WebAssembly parser cannot take safely is refused before it gets there. Measured with
// @posthog/hogql-parser 1.3.87 in Node 20 (this machine): a sum of 400 terms or 500 ANDed
// conditions crashes the instance for good (250-350 terms parse in ~150 ms); 200-300 nested
// subqueries crash it; nesting costs grow exponentially (in the worker: 16 nested parentheses
// 0.25 s, 20: 3.4 s; 8 nested calls, subqueries or ifs 0.2 s, 12 of them more than 8 s). The limits
// below stop the crashes; what is merely slow is stopped by the parse timeout (the worker is
// replaced), so neither reaches other requests.
import { QueryTooComplexError } from './errors.js';
import type { ParseKind } from './types.js';

export const MAX_LENGTH: Record<ParseKind, number> = { select: 50_000, expr: 10_000 };
/** Brackets ( [ { open at once: well under the 200 nested subqueries that crash the parser. */
export const MAX_DEPTH = 64;
/** Operators in the whole text: well under the 350-400 chained terms that crash it. */
export const MAX_OPERATORS = 200;

const OPERATOR_CHARS = new Set(['+', '-', '*', '/', '%', '<', '>', '=', '!', '|', '?']);
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'like', 'ilike', 'in', 'is', 'between']);

/** One pass over the text, outside strings, quoted names and comments: depth and operator count. */
export function checkParsable(kind: ParseKind, text: string): void {
  if (text.length > MAX_LENGTH[kind]) throw new QueryTooComplexError(`The query is longer than ${MAX_LENGTH[kind]} characters.`);
  if (text.includes('\u0000')) throw new QueryTooComplexError('The query contains a NUL character.');
  let depth = 0;
  let operators = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      i = skipQuoted(text, i, c);
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth += 1;
      if (depth > MAX_DEPTH) throw new QueryTooComplexError(`The query nests brackets more than ${MAX_DEPTH} levels deep.`);
    } else if (c === ')' || c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    } else if (OPERATOR_CHARS.has(c)) {
      // A run of operator characters (<=, !=, ||, ->) is one operator.
      while (i + 1 < n && OPERATOR_CHARS.has(text[i + 1]!)) i += 1;
      operators += 1;
    } else if (isWordStart(c)) {
      const start = i;
      while (i + 1 < n && isWordPart(text[i + 1]!)) i += 1;
      if (WORD_OPERATORS.has(text.slice(start, i + 1).toLowerCase())) operators += 1;
    }
    if (operators > MAX_OPERATORS) throw new QueryTooComplexError(`The query has more than ${MAX_OPERATORS} operators; split it or use functions over arrays.`);
    i += 1;
  }
}

/** The index after a quoted run starting at `start`: backslash escapes, and a doubled quote is one quote. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return text.length;
}

const isWordStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isWordPart = (c: string) => isWordStart(c) || (c >= '0' && c <= '9') || c === '$';
