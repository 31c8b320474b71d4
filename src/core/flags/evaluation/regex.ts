// `regex` / `not_regex` run user patterns through re2js (RE2 semantics, linear time), never through
// JavaScript's backtracking RegExp: one flag's pattern must not stall the server for every project.
// PostHog uses fancy_regex with a backtrack limit; constructs RE2 cannot compile (lookaround,
// backreferences) are treated like PostHog's invalid patterns: neither operator matches. RE2's
// \d, \w and \b are ASCII where Rust's regex is Unicode-aware; patterns over 4096 characters are
// refused, and the compared text is capped (values.ts).
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

const INVALID = Symbol('invalid pattern');
const MAX_PATTERN_LENGTH = 4096;
const compiled = new LRUCache<string, RE2JS | typeof INVALID>({ max: 2000 });

/** The compiled pattern, or null when RE2 refuses it (compiled once, remembered either way). */
export function compilePattern(pattern: string): RE2JS | null {
  let entry = compiled.get(pattern);
  if (entry === undefined) {
    entry = INVALID;
    if (pattern.length <= MAX_PATTERN_LENGTH) {
      try {
        entry = RE2JS.compile(pattern);
      } catch {
        entry = INVALID;
      }
    }
    compiled.set(pattern, entry);
  }
  return entry === INVALID ? null : entry;
}

/** Unanchored search (Rust's `find`); null when the pattern is invalid. */
export function regexFinds(pattern: string, haystack: string): boolean | null {
  const regex = compilePattern(pattern);
  return regex ? regex.test(haystack) : null;
}
