// The translator's limits over one statement, in one place: how much it may write out, how deep
// CTEs and template functions may nest.
import { HogQLQueryError } from '../errors.js';

/**
 * How many expressions and queries one statement may translate to. A page of HogQL is a few
 * thousand; chained CTEs that each name the previous one twice double at every link.
 */
export const TRANSLATION_BUDGET = 100_000;

export const CTE_LOOP = 'Too many CTE expansions (50+). Probably a CTE loop.';
/** PostHog's MAX_PLACEHOLDER_MACRO_EXPANSION_DEPTH: how deep template functions (date_part ...) may nest. */
const MAX_MACRO_DEPTH = 8;

export class TranslationBudget {
  /** Nodes translated so far: a CTE is translated again at each use, so text can grow exponentially here. */
  private work = 0;
  /** The CTEs whose bodies are being translated, innermost last. */
  private readonly expanding: string[] = [];
  /** Template functions (PostHog's placeholder macros) open around the expression being translated. */
  private macroDepth = 0;

  /** One more node translated; past the budget the query is refused before it can grow any further. */
  spend(): void {
    this.work += 1;
    if (this.work > TRANSLATION_BUDGET) {
      throw new HogQLQueryError(`The query expands to more than ${TRANSLATION_BUDGET} expressions once its CTEs and subqueries are written out; simplify it or use fewer references to each CTE`);
    }
  }

  /** Translates a CTE's body; a CTE read again inside its own body is PostHog's loop refusal. */
  expandingCte<T>(name: string, body: () => T): T {
    if (this.expanding.includes(name)) throw new HogQLQueryError(CTE_LOOP);
    this.expanding.push(name);
    try {
      return body();
    } finally {
      this.expanding.pop();
    }
  }

  /** Whether `name` is a CTE whose body is being translated (an unknown table of that name is the loop). */
  isExpanding(name: string): boolean {
    return this.expanding.includes(name);
  }

  /** A template call opens: refused past PostHog's depth. Each open is closed by `closeMacro`. */
  openMacro(name: string): void {
    if (this.macroDepth >= MAX_MACRO_DEPTH) throw new HogQLQueryError(`Function '${name}' exceeded maximum placeholder macro depth of ${MAX_MACRO_DEPTH}.`);
    this.macroDepth++;
  }

  closeMacro(): void {
    this.macroDepth--;
  }
}
