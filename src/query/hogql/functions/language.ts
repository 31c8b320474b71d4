// languageCodeToName(code): the English name of an ISO 639-1 language code, 'Unknown' for anything
// else, as PostHog prints it (transform(code, codes, names, 'Unknown')). The two lists are built once
// from the runtime's ICU data (Intl.DisplayNames) over every two-letter code, leaving out the codes
// ISO 639-1 withdrew, which ICU still names; they are bound as two constant array parameters.
import { call, constant } from '../../ast/build.js';
import type { Call, Expr } from '../../ast/nodes.js';
import type { HogQLFunction } from './types.js';

/** Withdrawn from ISO 639-1 (replaced by he, id, yi, jv, ro, sr/hr, and the bh collective). */
const WITHDRAWN: ReadonlySet<string> = new Set(['iw', 'in', 'ji', 'jw', 'mo', 'sh', 'bh']);

function languageList(): { codes: string[]; names: string[] } {
  const display = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  const codes: string[] = [];
  const names: string[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      const name = WITHDRAWN.has(code) ? undefined : display.of(code);
      if (name) {
        codes.push(code);
        names.push(name);
      }
    }
  }
  return { codes, names };
}

export const LANGUAGES = languageList();

function languageCodeToName(args: readonly Expr[]): Call {
  return call('transform', args[0]!, constant(LANGUAGES.codes, 'Array(String)'), constant(LANGUAGES.names, 'Array(String)'), constant('Unknown'));
}

export const LANGUAGE_FUNCTIONS: ReadonlyMap<string, HogQLFunction> = new Map([
  ['languageCodeToName', Object.freeze({ clickhouse: 'transform', minArgs: 1, maxArgs: 1, expand: languageCodeToName, shape: "transform(code, ISO 639-1 codes, their English names, 'Unknown')" })],
]);
