// The query kinds an editor asks while its user types (PostHog's HogQLMetadata and
// HogQLAutocomplete): they check or complete HogQL and calculate nothing, so they are answered at
// once, never cached, never run as insights. One line per kind: how its node is read (a 400 before
// anything else) and how it is answered for the asking project.
import { HogQLAutocomplete } from '../../query/autocomplete/autocomplete.js';
import { readHogQLAutocomplete } from '../../query/autocomplete/read.js';
import { hogqlMetadata } from '../../query/metadata/metadata.js';
import { readHogQLMetadata } from '../../query/metadata/read.js';
import type { JsonObject } from '../../query/nodes/read-json.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { Principal } from '../auth/principal.js';
import type { DefinitionsService } from '../definitions/service.js';
import { autocompleteDeps } from './hogql-autocomplete.js';
import { metadataDeps } from './hogql-metadata.js';
import type { InsightQueryService } from './service.js';

export interface EditorAsker {
  readonly principal: Principal;
  readonly projectParam: string;
  readonly project: ProjectRow;
  readonly queries: InsightQueryService;
  readonly definitions: DefinitionsService;
}

interface EditorKind {
  /** The request, checked: a 400 names what is wrong. */
  read(node: JsonObject): unknown;
  answer(request: unknown, asker: EditorAsker): Promise<object>;
}

const kind = <R>(read: (node: JsonObject) => R, answer: (request: R, asker: EditorAsker) => Promise<object>): EditorKind =>
  ({ read, answer: (request, asker) => answer(request as R, asker) });

export const EDITOR_KINDS: Readonly<Record<string, EditorKind>> = Object.freeze({
  HogQLMetadata: kind((node) => readHogQLMetadata(node, 'query'), (request, a) => hogqlMetadata(request, metadataDeps(a.queries, a.project))),
  HogQLAutocomplete: kind((node) => readHogQLAutocomplete(node, 'query'),
    (request, a) => new HogQLAutocomplete(autocompleteDeps(a.definitions, { principal: a.principal, projectParam: a.projectParam, projectId: a.project.id })).answer(request)),
});

/** The editor kind of a query node, or undefined for any other node. */
export const editorKindOf = (node: unknown): EditorKind | undefined => {
  const name = node !== null && typeof node === 'object' ? (node as { kind?: unknown }).kind : undefined;
  return typeof name === 'string' && Object.hasOwn(EDITOR_KINDS, name) ? EDITOR_KINDS[name] : undefined;
};
