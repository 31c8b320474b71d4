// PostHog's HogQLAutocomplete (posthog/hogql/autocomplete.py's rules, our code): what may be typed
// at the selection. The text is parsed as it is, then with a placeholder word, a closing brace or
// ` FROM events` inserted at the cursor, until one try gives suggestions. A field under the cursor
// gets the fields of its SELECT's table (through aliases, subqueries, CTEs and lazy joins), then the
// allow-listed functions; a JSON column's path gets the project's property definitions; a FROM gets
// the table names. Nothing is translated or run: the only store read is the property definitions.
import { allHogQLFunctions } from '../hogql/functions/index.js';
import type { HogQLParser } from '../hogql/parse/index.js';
import { chainOf, child, type HogQLNode } from '../hogql/translate/hogql-ast.js';
import type { HogQLType } from '../hogql/translate/types.js';
import { nodeAtPosition } from './find-node.js';
import { aliasedTables, ctesOf, tableOf, type Ctes } from './scope.js';
import { expectedType, functionSortText } from './rank.js';
import type { HogQLAutocompleteRequest } from './read.js';
import { AUTOCOMPLETE_TABLES, type FieldSpec, type PropertyOwner, type TableSpec } from './schema.js';

export const MATCH_ANY = '$$_POSTHOG_ANY_$$';
/** PostHog's PROPERTY_DEFINITION_LIMIT: property suggestions per answer. */
export const PROPERTY_LIMIT = 220;
/** The answer's suggestions at most; past it the list is cut and `incomplete_list` is true. */
export const MAX_SUGGESTIONS = 2_000;
/** The longest typed word looked up among property definitions. */
const MAX_PROPERTY_TERM = 200;

/** The `kind` of a completion, as Monaco and PostHog's schema name them. */
export type CompletionKind = 'Function' | 'Variable' | 'Folder' | 'Constant' | 'Field' | 'Keyword';

export interface AutocompleteCompletionItem {
  readonly label: string;
  readonly insertText: string;
  readonly kind: CompletionKind;
  readonly detail: string | null;
  readonly documentation: string | null;
  /** Set only where functions are ranked (one side of a comparison), as PostHog sets it. */
  readonly sortText?: string;
}

export interface HogQLAutocompleteResponse {
  suggestions: AutocompleteCompletionItem[];
  incomplete_list: boolean;
  timings: { k: string; t: number }[];
}

export interface PropertyDefinitionsPage {
  /** How many definitions match, all told. */
  readonly total: number;
  readonly properties: readonly { readonly name: string; readonly property_type: string | null }[];
}

export interface AutocompleteDeps {
  readonly parser: HogQLParser;
  readonly projectId: number;
  /** The project's property definitions of `owner` whose names contain `contains`, at most `limit`. */
  readonly propertyDefinitions: (owner: PropertyOwner, contains: string, limit: number) => Promise<PropertyDefinitionsPage>;
}

/** Names PostHog quotes with backticks when it inserts a field. */
const NEEDS_BACKTICKS = /[@\-!$+]/;

let functionNames: readonly string[] | null = null;
/** The allow-list's names, sorted (PostHog's sorted set of exposed function names). */
function allFunctionNames(): readonly string[] {
  functionNames ??= Object.freeze([...new Set(allHogQLFunctions().map((f) => f.name))].sort());
  return functionNames;
}

const item = (label: string, kind: CompletionKind, insertText = label, detail: string | null = null): AutocompleteCompletionItem =>
  ({ label, insertText, kind, detail, documentation: null });

/** The tries PostHog makes: text inserted at the cursor, and how far the selection's end moves. */
const TRIES: readonly (readonly [string, number])[] = [
  ['', 0],
  [MATCH_ANY, MATCH_ANY.length],
  ['}', 0],
  [`${MATCH_ANY}}`, MATCH_ANY.length],
  [' FROM events', 0],
  [`${MATCH_ANY} FROM events`, MATCH_ANY.length],
];

const EMPTY_SOURCE = 'select 1';

class Suggestions {
  readonly list: AutocompleteCompletionItem[] = [];
  incomplete = false;

  add(items: Iterable<AutocompleteCompletionItem>): void {
    for (const entry of items) this.list.push(entry);
  }

  functions(prefix = '', expected: HogQLType | null = null): void {
    const lower = prefix.toLowerCase();
    const names = allFunctionNames().filter((name) => name.toLowerCase().startsWith(lower));
    this.add(names.map((name) => {
      const fn = item(name, 'Function', `${name}()`);
      return expected ? { ...fn, sortText: functionSortText(name, expected) } : fn;
    }));
  }

  tableFields(table: TableSpec, expected: HogQLType | null): void {
    for (const [name, spec] of Object.entries(table.fields)) {
      this.list.push(item(name, 'Variable', NEEDS_BACKTICKS.test(name) ? `\`${name}\`` : name, detailOf(spec)));
    }
    this.functions('', expected);
  }

  /** The editor's globals (PostHog's add_globals_to_suggestions): names not suggested yet, with a short look at the value. */
  globals(values: Record<string, unknown>): void {
    const taken = new Set(this.list.map((s) => s.label));
    for (const [key, value] of Object.entries(values)) {
      if (taken.has(key)) continue;
      let detail: string;
      if (Array.isArray(value)) detail = 'Array';
      else if (value !== null && typeof value === 'object') detail = 'Object';
      else {
        detail = JSON.stringify(value) ?? 'null';
        if (detail.length > 20) detail = `${detail.slice(0, 20)}...`;
      }
      this.list.push(item(key, 'Variable', key, detail));
    }
  }
}

const detailOf = (spec: FieldSpec): string => (spec.kind === 'table' ? 'Table' : spec.type);

/** A table's fields, with the tables a field leads to listed as theirs. */
const fieldsOf = (table: TableSpec) => Object.entries(table.fields);

export class HogQLAutocomplete {
  constructor(private readonly deps: AutocompleteDeps) {}

  async answer(request: HogQLAutocompleteRequest): Promise<HogQLAutocompleteResponse> {
    const started = performance.now();
    const suggestions = new Suggestions();
    if (request.language === 'hogQL' || request.language === 'hogQLExpr') {
      const source = request.language === 'hogQLExpr' ? await this.sourceSelect(request.sourceQuery) : null;
      for (const [extra, moved] of TRIES) {
        await this.attempt(request, extra, moved, source, suggestions).catch(() => undefined);
        if (suggestions.list.length > 0) break;
      }
    }
    // Hog programs and templates: Hoglet has no Hog compiler, so it suggests nothing for them.
    const incomplete = suggestions.incomplete || suggestions.list.length > MAX_SUGGESTIONS;
    return {
      suggestions: suggestions.list.slice(0, MAX_SUGGESTIONS),
      incomplete_list: incomplete,
      timings: [{ k: '.', t: (performance.now() - started) / 1000 }],
    };
  }

  /** The SELECT an expression is completed in; `select 1` when there is none or it does not parse. */
  private async sourceSelect(text: string | null): Promise<HogQLNode> {
    const parse = (t: string) => this.deps.parser.parse('select', t, this.deps.projectId);
    if (text !== null && text.trim() !== '') {
      try {
        const parsed = await parse(text);
        if (parsed.node === 'SelectQuery') return parsed;
      } catch {
        // A source that does not parse must not break completion (PostHog's rule).
      }
    }
    return parse(EMPTY_SOURCE);
  }

  private async attempt(request: HogQLAutocompleteRequest, extra: string, moved: number, source: HogQLNode | null, out: Suggestions): Promise<void> {
    const text = request.query.slice(0, request.endPosition) + extra + request.query.slice(request.endPosition);
    const start = request.startPosition;
    const end = request.endPosition + moved;
    let root: HogQLNode;
    let select: HogQLNode;
    if (source) {
      root = await this.deps.parser.parse('expr', text, this.deps.projectId);
      select = { ...source, select: [root] };
    } else {
      root = await this.deps.parser.parse('select', text, this.deps.projectId);
      select = root;
    }
    const found = nodeAtPosition(root, start, end);
    const { node, parent } = found;
    // A string under the cursor completes nothing (PostHog skips constants).
    if (node?.node === 'Constant') return;

    if (request.globals && node?.node === 'Field' && this.nestedGlobals(node, request.globals, out)) return;
    if (request.globals) out.globals(request.globals);

    const nearest = found.nearestSelect ?? select;
    if (node?.node !== 'Field' || nearest.node !== 'SelectQuery') return;
    const chain = chainOf(node);
    if (parent?.node === 'JoinExpr') return this.tableNames(chain, out);
    if (parent?.node === 'Placeholder') return; // Insight variables: Hoglet has none.
    if (!child(nearest, 'select_from')) return;
    await this.fields(node, parent, text.slice(start, end), nearest, ctesOf(select), out);
  }

  /** A field chain inside the globals: their keys at that level. True when that ends the answer. */
  private nestedGlobals(node: HogQLNode, globals: Record<string, unknown>, out: Suggestions): boolean {
    const chain = chainOf(node);
    let level: unknown = globals;
    for (const [index, key] of chain.entries()) {
      if (String(key).includes(MATCH_ANY)) break;
      if (level && typeof level === 'object' && Object.hasOwn(level, String(key))) level = (level as Record<string, unknown>)[String(key)];
      else if (index === chain.length - 1) break;
      else return false;
    }
    if (!level || typeof level !== 'object' || Array.isArray(level)) return false;
    out.globals(level as Record<string, unknown>);
    return level !== globals;
  }

  private tableNames(chain: (string | number)[], out: Suggestions): void {
    const names = [...AUTOCOMPLETE_TABLES.keys()];
    if (chain.length === 1) return out.add(names.map((name) => item(name, 'Folder', name, 'Table')));
    if (names.includes(String(chain[0]))) return;
    const typed = chain.map(String).filter((part) => part !== MATCH_ANY).join('.');
    out.add(names.filter((name) => name.includes(typed)).map((name) => name.replace(`${typed}.`, '')).map((name) => item(name, 'Folder', name, 'Table')));
  }

  private async fields(node: HogQLNode, parent: HogQLNode | null, typed: string, select: HogQLNode, ctes: Ctes, out: Suggestions): Promise<void> {
    const chain = chainOf(node);
    const table = tableOf(child(select, 'select_from'), ctes);
    if (!table) {
      if (chain.length === 1) out.functions(String(chain[0]) === MATCH_ANY ? '' : String(chain[0]));
      return;
    }
    const hasAlias = typeof child(select, 'select_from')?.['alias'] === 'string';
    let last: TableSpec = table;
    for (const [index, part] of chain.entries()) {
      const name = String(part);
      if (hasAlias && index === 0) {
        const aliases = aliasedTables(select, ctes);
        // The first word of an aliased FROM: the aliases themselves.
        if (chain.length === 1) return out.add([...aliases.keys()].map((a) => item(a, 'Folder', a, 'Table')));
        const aliased = aliases.get(name);
        if (!aliased) return;
        last = aliased;
        continue;
      }
      // The last part (or the one before it) is the word being typed or the inserted placeholder.
      const isLast = index >= chain.length - 2;
      const spec = Object.hasOwn(last.fields, name) ? last.fields[name] : undefined;
      if (isLast) {
        if (!spec) return out.tableFields(last, expectedType(node, parent, last));
        if (spec.kind === 'table') {
          const inner = spec.table();
          return out.add(fieldsOf(inner).map(([key, f]) => item(key, 'Variable', key, detailOf(f))));
        }
        if (spec.properties) await this.properties(spec.properties, typed === MATCH_ANY ? '' : typed, out);
        return;
      }
      if (!spec || spec.kind !== 'table') return;
      last = spec.table();
    }
  }

  private async properties(owner: PropertyOwner, contains: string, out: Suggestions): Promise<void> {
    // A selection longer than any property name worth completing is not looked up (nor kept in the cache).
    if (contains.length > MAX_PROPERTY_TERM) return;
    const page = await this.deps.propertyDefinitions(owner, contains, PROPERTY_LIMIT);
    out.add(page.properties.slice(0, PROPERTY_LIMIT).map((p) => item(p.name, 'Variable', p.name, p.property_type)));
    out.incomplete = page.total > PROPERTY_LIMIT;
  }
}
