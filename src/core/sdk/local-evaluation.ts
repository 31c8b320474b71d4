// posthog-node's flag definitions for local evaluation (reference feature-flags.md 3.3): every
// non-deleted flag but remote-config ones (inactive included, which SDKs read as off), the
// project's group type mapping, and with `send_cohorts` the trees of the dynamic cohorts the flags
// name, transitively. Static cohorts are left out: an SDK cannot decide them and asks the server.
// Without `send_cohorts` `cohorts` is empty and a flag's one plain person-property cohort is
// written out as person conditions (cohort-inlining.ts), as PostHog does for older SDKs.
import { createHash } from 'node:crypto';
import type { ProjectFlags } from '../flags/definitions-cache.js';
import { inlineSimpleCohort } from './cohort-inlining.js';

export interface FlagDefinitionsBody {
  flags: Record<string, unknown>[];
  group_type_mapping: Record<string, string>;
  cohorts: Record<string, unknown>;
}

export function flagDefinitionsBody(project: ProjectFlags, groupTypeMapping: Record<string, string>, sendCohorts: boolean): FlagDefinitionsBody {
  const flags = project.flags
    .filter((flag) => !flag.deleted && !flag.isRemoteConfiguration)
    .map((flag) => ({
      id: flag.id,
      team_id: flag.projectId,
      name: flag.name,
      key: flag.key,
      filters: sendCohorts ? flag.filters : inlineSimpleCohort(flag.filters, project.cohorts),
      deleted: flag.deleted,
      active: flag.active,
      ensure_experience_continuity: flag.ensureExperienceContinuity,
      has_encrypted_payloads: flag.hasEncryptedPayloads,
      version: flag.version,
      evaluation_runtime: flag.evaluationRuntime,
      bucketing_identifier: flag.bucketingIdentifier,
      evaluation_tags: flag.evaluationTags,
    }));
  const cohorts: Record<string, unknown> = {};
  if (sendCohorts) {
    for (const [id, cohort] of project.cohorts) if (!cohort.definition.isStatic && cohort.properties !== null) cohorts[String(id)] = cohort.properties;
  }
  return { flags, group_type_mapping: groupTypeMapping, cohorts };
}

/** The answer's text and its ETag, as sent. */
export interface PreparedDefinitions {
  text: string;
  etag: string;
}

/** Built once per cached definitions (a new object at every flag or cohort change), mapping and form. */
const prepared = new WeakMap<ProjectFlags, Map<string, PreparedDefinitions>>();

/** The answer to a poll, from memory unless the definitions or the group types changed since the last. */
export function preparedDefinitions(project: ProjectFlags, groupTypeMapping: Record<string, string>, sendCohorts: boolean): PreparedDefinitions {
  let forms = prepared.get(project);
  if (!forms) prepared.set(project, (forms = new Map()));
  const key = `${sendCohorts}\u0000${JSON.stringify(groupTypeMapping)}`;
  let answer = forms.get(key);
  if (!answer) {
    const text = JSON.stringify(flagDefinitionsBody(project, groupTypeMapping, sendCohorts));
    if (forms.size >= 4) forms.clear(); // old group type mappings' answers
    forms.set(key, (answer = { text, etag: definitionsEtag(text) }));
  }
  return answer;
}

/** A weak validator of the body's text: SDKs send it back as If-None-Match and get a 304. */
export function definitionsEtag(text: string): string {
  return `W/"${createHash('sha1').update(text).digest('hex')}"`;
}

/** An entity tag without its weak prefix and quotes (PostHog also takes a client's unquoted value). */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');

/** Whether an If-None-Match header names this ETag (a list, `*`, weak, strong or unquoted). */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = opaque(etag);
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .some((part) => part.trim() === '*' || opaque(part) === wanted);
}

/** `send_cohorts` present (with no value, or any value but false/0) means yes. */
export function wantsCohorts(query: Record<string, unknown>): boolean {
  if (!('send_cohorts' in query)) return false;
  const value = Array.isArray(query.send_cohorts) ? query.send_cohorts[0] : query.send_cohorts;
  return !(typeof value === 'string' && ['false', '0'].includes(value.toLowerCase()));
}
