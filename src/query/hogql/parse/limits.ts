// Input the WebAssembly parser cannot take safely is refused before it gets there. Measured with
// @posthog/hogql-parser 1.3.87 in Node 20 (this machine): a sum of 400 terms or 500 ANDed
// conditions crashes the instance for good (250-350 terms parse in ~150 ms); 200-300 nested
// subqueries crash it; nesting costs grow exponentially (in the worker: 16 nested parentheses
// 0.25 s, 20: 3.4 s; 8 nested calls, subqueries or ifs 0.2 s, 12 of them more than 8 s). The limits
// below stop the crashes; what is merely slow is stopped by the parse timeout (the worker is
// replaced), so neither reaches other requests.
//
// The text is read as PostHog's lexer reads it (HogQLLexer.g4 and its modes), so no string form
// hides code from the count: an f-string's `{…}` is code, nested f-strings and HogQLX tags
// (`<a x={…}>text {…}</a>`) nest, and a quote the lexer would not close as a string (an unknown
// escape, no closing quote) hides nothing either. Each mode entered counts as one level of depth.
import { QueryTooComplexError } from './errors.js';
import type { ParseKind } from './types.js';

export const MAX_LENGTH: Record<ParseKind, number> = { select: 50_000, expr: 10_000 };
/** Brackets ( [ { and string or tag modes open at once: well under the 200 nested subqueries that crash the parser. */
export const MAX_DEPTH = 64;
/** Operators in the whole text: well under the 350-400 chained terms that crash it. */
export const MAX_OPERATORS = 200;

const OPERATOR_CHARS = new Set(['+', '-', '*', '/', '%', '<', '>', '=', '!', '|', '?']);
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'like', 'ilike', 'in', 'is', 'between']);

/** The lexer's modes: code, f'…' and F'… template strings, and the three of HogQLX tags. */
type Mode = 'code' | 'template' | 'fullTemplate' | 'tagOpen' | 'tagClose' | 'tagText';

interface Frame {
  mode: Mode;
  /** The depth this frame opened at: its closing brackets cannot go below it. */
  readonly base: number;
}

/** One pass over the text as the lexer reads it: depth and operator count, refused past a limit. */
export function checkParsable(kind: ParseKind, text: string): void {
  if (text.length > MAX_LENGTH[kind]) throw new QueryTooComplexError(`The query is longer than ${MAX_LENGTH[kind]} characters.`);
  if (text.includes('\u0000')) throw new QueryTooComplexError('The query contains a NUL character.');
  new Scan(text).run();
}

class Scan {
  private readonly frames: Frame[] = [{ mode: 'code', base: 0 }];
  private depth = 0;
  private operators = 0;
  private i = 0;

  constructor(private readonly text: string) {}

  run(): void {
    while (this.i < this.text.length) {
      const frame = this.frames[this.frames.length - 1]!;
      switch (frame.mode) {
        case 'code': this.code(); break;
        case 'template': this.template(false); break;
        case 'fullTemplate': this.template(true); break;
        case 'tagOpen': this.tag(true); break;
        case 'tagClose': this.tag(false); break;
        case 'tagText': this.tagText(frame); break;
      }
    }
  }

  private push(mode: Mode): void {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new QueryTooComplexError(`The query nests brackets, strings or tags more than ${MAX_DEPTH} levels deep.`);
    this.frames.push({ mode, base: this.depth });
  }

  private pop(): void {
    const frame = this.frames.pop()!;
    this.depth = frame.base - 1;
  }

  private countOperator(): void {
    this.operators += 1;
    if (this.operators > MAX_OPERATORS) throw new QueryTooComplexError(`The query has more than ${MAX_OPERATORS} operators; split it or use functions over arrays.`);
  }

  private code(): void {
    const { text } = this;
    const c = text[this.i]!;
    const next = text[this.i + 1];
    if (this.skipComment()) return;
    if (c === "'" || c === '"' || c === '`') {
      // Not a whole quoted token: the lexer takes the quote alone and reads on as code.
      const end = quotedEnd(text, this.i);
      this.i = end < 0 ? this.i + 1 : end;
      return;
    }
    if (c === '{') {
      this.i += 1;
      this.push('code');
      return;
    }
    if (c === '}') {
      this.i += 1;
      if (this.frames.length > 1) this.pop();
      return;
    }
    if (c === '(' || c === '[') {
      this.i += 1;
      this.depth += 1;
      if (this.depth > MAX_DEPTH) throw new QueryTooComplexError(`The query nests brackets, strings or tags more than ${MAX_DEPTH} levels deep.`);
      return;
    }
    if (c === ')' || c === ']') {
      this.i += 1;
      if (this.depth > this.frames[this.frames.length - 1]!.base) this.depth -= 1;
      return;
    }
    if (c === '<' && next === '/') {
      this.i += 2;
      this.push('tagClose');
      return;
    }
    if (c === '<' && this.opensTag()) {
      this.i += 1;
      this.push('tagOpen');
      return;
    }
    if (OPERATOR_CHARS.has(c)) {
      // A run of operator characters (<=, !=, ||, ->) is one operator.
      while (this.i + 1 < text.length && OPERATOR_CHARS.has(text[this.i + 1]!)) this.i += 1;
      this.i += 1;
      this.countOperator();
      return;
    }
    if (isWordStart(c)) {
      if ((c === 'f' || c === 'F') && next === "'") {
        this.i += 2;
        this.push(c === 'f' ? 'template' : 'fullTemplate');
        return;
      }
      const start = this.i;
      while (this.i + 1 < text.length && isWordPart(text[this.i + 1]!)) this.i += 1;
      this.i += 1;
      if (WORD_OPERATORS.has(text.slice(start, this.i).toLowerCase())) this.countOperator();
      return;
    }
    this.i += 1;
  }

  /** f'…' ends at a lone quote; F'… runs to the end of the text. `{` opens code in both. */
  private template(full: boolean): void {
    const { text } = this;
    const c = text[this.i]!;
    if (c === '\\') {
      const escape = text[this.i + 1] === '{' ? 2 : escapeLength(text, this.i, "'");
      this.i += escape > 0 ? escape : 1;
      return;
    }
    if (c === '{') {
      this.i += 1;
      this.push('code');
      return;
    }
    if (!full && c === "'") {
      if (text[this.i + 1] === "'") {
        this.i += 2;
        return;
      }
      this.i += 1;
      this.pop();
      return;
    }
    this.i += 1;
  }

  /** Inside `<name …>` (open) or `</name …>` (close): attributes, `{…}` values, quoted strings. */
  private tag(open: boolean): void {
    const { text } = this;
    const c = text[this.i]!;
    if (this.skipComment()) return;
    if (open && c === '/' && text[this.i + 1] === '>') {
      this.i += 2;
      this.pop();
      return;
    }
    if (c === '>') {
      this.i += 1;
      if (open) this.frames[this.frames.length - 1]!.mode = 'tagText';
      else this.pop();
      return;
    }
    if (open && c === '{') {
      this.i += 1;
      this.push('code');
      return;
    }
    if (open && c === "'") {
      const end = quotedEnd(text, this.i);
      this.i = end < 0 ? this.i + 1 : end;
      return;
    }
    this.i += 1;
  }

  /** A tag's children: text (quotes are text here), `{…}` code, child tags, then the closing tag. */
  private tagText(frame: Frame): void {
    const { text } = this;
    const c = text[this.i]!;
    if (c === '{') {
      this.i += 1;
      this.push('code');
    } else if (c === '<' && text[this.i + 1] === '/') {
      this.i += 2;
      frame.mode = 'tagClose';
    } else if (c === '<') {
      this.i += 1;
      this.push('tagOpen');
    } else {
      this.i += 1;
    }
  }

  /** Skips a comment at the position (`--`, `//`, `#` to the line's end; a closed block comment). */
  private skipComment(): boolean {
    const { text } = this;
    const c = text[this.i]!;
    const next = text[this.i + 1];
    if ((c === '-' && next === '-') || (c === '/' && next === '/') || c === '#') {
      this.i = lineEnd(text, this.i);
      return true;
    }
    if (c === '/' && next === '*') {
      // An unclosed block comment is no comment: the lexer reads `/` and `*` and goes on.
      const end = text.indexOf('*/', this.i + 2);
      if (end < 0) return false;
      this.i = end + 2;
      return true;
    }
    return false;
  }

  /** PostHog's isOpeningTag: `<name` followed by `>`, `/`, or whitespace and then a name, `>` or `/`. */
  private opensTag(): boolean {
    const { text } = this;
    let j = this.i + 1;
    if (!isAsciiLetter(text[j]) && text[j] !== '_') return false;
    while (j < text.length && (isAsciiLetter(text[j]) || isDigit(text[j]) || text[j] === '_' || text[j] === '-')) j += 1;
    if (text[j] === '>' || text[j] === '/') return true;
    if (!isSpace(text[j])) return false;
    while (j < text.length) {
      if (isSpace(text[j])) j += 1;
      else if ((text[j] === '/' && text[j + 1] === '/') || (text[j] === '-' && text[j + 1] === '-') || text[j] === '#') j = lineEnd(text, j);
      else break;
    }
    const ch = text[j];
    return isAsciiLetter(ch) || isDigit(ch) || ch === '_' || ch === '>' || ch === '/';
  }
}

/**
 * The index after the quoted token starting at `start` ('…' string, "…" or `…` name), or -1 when
 * the lexer would not read one there. Doubled quotes and the lexer's escapes are inside; like the
 * lexer, the longest run that ends in a closing quote wins, so `'a''` is `'a'` then a quote.
 */
function quotedEnd(text: string, start: number): number {
  const quote = text[start]!;
  let lastEnd = -1;
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) {
      if (text[i + 1] !== quote) return i + 1;
      lastEnd = i + 1;
      i += 2;
      continue;
    }
    if (c === '\\') {
      const escape = escapeLength(text, i, quote === '"' ? '"' : "'");
      if (escape === 0) return lastEnd;
      i += escape;
      continue;
    }
    i += 1;
  }
  return lastEnd;
}

/** Length of the escape at `at` (a backslash): the lexer's ESCAPE_CHAR_COMMON or `\<quote>`; 0 if none. */
function escapeLength(text: string, at: number, quote: string): number {
  const next = text[at + 1];
  if (next === undefined) return 0;
  if (next === quote || 'bfrnt0av\\BFRNTAV'.includes(next)) return 2;
  if ((next === 'x' || next === 'X') && isHex(text[at + 2]) && isHex(text[at + 3])) return 4;
  return 0;
}

function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i += 1;
  return i;
}

const isAsciiLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => isDigit(c) || (c !== undefined && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
const isWordStart = (c: string) => isAsciiLetter(c) || c === '_' || c === '$';
const isWordPart = (c: string) => isWordStart(c) || isDigit(c);
