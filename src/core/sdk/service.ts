// What the SDKs' start-up endpoints need from a project: its remote config by capture token, the
// flags a /flags/ or /decide/ body asks for, evaluated, and posthog-node's definitions for local
// evaluation. Settings come from ProjectRowCache (this process's project writes clear it, so a
// change in the Projects API shows in the next answer; others' within a second); the token itself is resolved through the capture token
// cache, which forgets revoked tokens at once; flag definitions come from FlagDefinitionsCache.
import { NotFoundError, ValidationError, type ApiError } from '../../errors.js';
import type { Principal, ProjectSecretAccess } from '../auth/principal.js';
import { InvalidApiKeyError, MissingApiKeyError } from '../capture/capture-errors.js';
import { decodeCaptureRequest, type CaptureRequestInput } from '../capture/decode.js';
import { InvalidProjectTokenError, type ProjectTokens } from '../capture/project-tokens.js';
import type { ProjectsService } from '../projects/service.js';
import { readSettings } from '../projects/view.js';
import { DEFAULT_TIMEZONE } from '../projects/settings-catalog.js';
import type { FlagDefinitionsCache, ProjectFlags } from '../flags/definitions-cache.js';
import type { CohortDefinition } from '../../query/cohorts/schema.js';
import { evaluateFlags } from '../flags/evaluation/index.js';
import type { FlagSubjectLoader } from '../flags/subjects/loader.js';
import type { ProjectRowCache } from './project-rows.js';
import type { FlagDefinition } from '../flags/types.js';
import type { EvaluatedFlag } from './flags-responses.js';
import type { GeoIpDatabase } from '../geoip/database.js';
import { withRequestLocation } from './flags-geoip.js';
import { readFlagsRequest } from './flags-request.js';
import { selectFlags } from './flags-selection.js';
import { preparedDefinitions, type PreparedDefinitions } from './local-evaluation.js';
import { buildRemoteConfig, isWellFormedToken, type RemoteConfig } from './remote-config.js';

/** Who may read flag definitions: a user, or a project's secret key (that project only). */
export type FlagReader = Principal | ProjectSecretAccess;

/** The cached parts of the service: flag definitions, subjects, and the project rows. */
export interface FlagSources {
  definitions: FlagDefinitionsCache;
  subjects: FlagSubjectLoader;
  projectRows: ProjectRowCache;
}

/** A project's config and its flags evaluated for one request. */
export interface FlagsAnswer {
  config: RemoteConfig;
  flags: EvaluatedFlag[];
}

/**
 * A flags request is small; PostHog's flags service takes bodies of a few hundred kB. Parsing is on
 * the main thread (10 MB cost ~650 ms in bench/attacks), so past 1 MB decoded it is a 413.
 */
const MAX_FLAGS_BODY_DECODED_BYTES = 1024 * 1024;

/** The project's group types as capture numbered them. */
export type GroupTypesOf = (teamId: number) => Promise<readonly { group_type: string; group_type_index: number }[]>;

export class SdkConfigService {
  constructor(
    private readonly tokens: ProjectTokens,
    private readonly projects: ProjectsService,
    private readonly flagSources: FlagSources,
    /** Where /flags/ looks up the client's address (null: GeoIP off). */
    private readonly geoip: GeoIpDatabase | null = null,
  ) {}

  /** `/array/<token>/config`: 400 for a malformed token, 404 for one no project has. */
  async remoteConfig(token: string): Promise<RemoteConfig> {
    if (!isWellFormedToken(token)) throw new ValidationError('Invalid token', null, 'invalid');
    try {
      return await this.configOf(token);
    } catch (error) {
      if (error instanceof InvalidProjectTokenError) throw new NotFoundError();
      throw error;
    }
  }

  /**
   * A /flags/ or /decide/ request (body `token`, `api_key` or `$token`, else `?token=`/`?api_key=`,
   * in any body encoding capture accepts): the project's remote config and its flags evaluated
   * for the distinct id. 401 without a valid token, 400 for a body PostHog's flags service would
   * not deserialise (no distinct_id, a field of the wrong type).
   */
  async answerFlagsRequest(input: CaptureRequestInput, clientIp: string | null = null): Promise<FlagsAnswer> {
    const body = await decodeFlagsBody(input);
    const token = body.token ?? body.api_key ?? body.$token ?? first(input.query.token) ?? first(input.query.api_key);
    if (token === undefined || token === null || token === '') throw new MissingApiKeyError();
    if (typeof token !== 'string') throw new InvalidApiKeyError();
    const projectId = await this.tokens.projectIdOf(token);
    const row = await this.flagSources.projectRows.row(projectId);
    if (!row) throw new InvalidProjectTokenError(); // deleted since the token was cached
    const settings = readSettings(row);
    const project = await this.flagSources.definitions.of(projectId);
    const config = buildRemoteConfig(row.api_token, settings, hasActiveFlag(project.flags));
    const request = readFlagsRequest(body);

    const flags = selectFlags(project.flags, request);
    if (flags.length === 0) return { config, flags: [] };
    const continuityKeys = flags.filter((flag) => flag.ensureExperienceContinuity && flag.filters.aggregation_group_type_index == null).map((f) => f.key);
    const subjects = this.flagSources.subjects;
    if (request.anonDistinctId !== null && continuityKeys.length > 0) {
      await subjects.writeHashKeyOverrides(projectId, request.distinctId, request.anonDistinctId, continuityKeys);
    }
    // As PostHog's flags service: the request's place fills the person properties' gaps.
    if (!request.geoipDisable) request.personProperties = await withRequestLocation(request.personProperties, clientIp, this.geoip);
    const loaded = await subjects.load({ projectId, ...request }, project, continuityKeys);
    const timezone = typeof settings.timezone === 'string' ? settings.timezone : DEFAULT_TIMEZONE;
    const results = evaluateFlags(flags, loaded.subject, {
      groupTypeMapping: loaded.groupTypeMapping,
      cohorts: cohortDefinitionsOf(project),
      timezone,
      now: new Date(),
    });
    return { config, flags: flags.map((flag: FlagDefinition) => ({ flag, result: results.get(flag.key)! })) };
  }

  /**
   * posthog-node's flag definitions for local evaluation. A user's key must reach the project of
   * `?token=` (or, without one, the caller's current project): 404 otherwise, as for any project
   * a key cannot see. A secret key reads its own project; `?token=` naming another is
   * `otherProject()` (the flags service's 401, Django's 403).
   */
  async flagDefinitions(reader: FlagReader, token: string | undefined, sendCohorts: boolean, otherProject: () => ApiError): Promise<PreparedDefinitions> {
    const named = token === undefined || token === '' ? null : await this.tokens.projectIdOf(token);
    if (reader.kind === 'project_secret') {
      if (named !== null && named !== reader.projectId) throw otherProject();
      return this.definitionsOf(reader.projectId, sendCohorts);
    }
    return this.flagDefinitionsOfProject(reader, named === null ? '@current' : String(named), sendCohorts);
  }

  /** The same for `/api/projects/:id/feature_flags/local_evaluation/`. */
  async flagDefinitionsOfProject(reader: FlagReader, projectParam: string, sendCohorts: boolean): Promise<PreparedDefinitions> {
    return this.definitionsOf(await this.readableProject(reader, projectParam), sendCohorts);
  }

  /**
   * posthog-node's `getRemoteConfigPayload`: the `"true"` payload (a JSON string, or null) of a
   * remote-config flag named by key or id; 404 for any other flag.
   */
  async remoteConfigPayload(reader: FlagReader, projectParam: string, keyOrId: string): Promise<string | null> {
    const flags = (await this.flagSources.definitions.of(await this.readableProject(reader, projectParam))).flags;
    const flag = flags.find((f) => f.key === keyOrId) ?? (/^\d+$/.test(keyOrId) ? flags.find((f) => f.id === Number(keyOrId)) : undefined);
    if (!flag || !flag.isRemoteConfiguration) throw new NotFoundError();
    return flag.filters.payloads?.true ?? null;
  }

  private async definitionsOf(projectId: number, sendCohorts: boolean): Promise<PreparedDefinitions> {
    const mapping = await this.flagSources.subjects.groupTypeNames(projectId);
    return preparedDefinitions(await this.flagSources.definitions.of(projectId), mapping, sendCohorts);
  }

  /** A user reads any project they can see; a secret key only its own (404 for another, as across organizations). */
  private async readableProject(reader: FlagReader, projectParam: string): Promise<number> {
    if (reader.kind !== 'project_secret') return this.projects.visibleId(reader, projectParam);
    if (projectParam === '@current' || projectParam === String(reader.projectId)) return reader.projectId;
    throw new NotFoundError();
  }

  private async configOf(token: string): Promise<RemoteConfig> {
    const id = await this.tokens.projectIdOf(token);
    const row = await this.flagSources.projectRows.row(id);
    if (!row) throw new InvalidProjectTokenError(); // deleted since the token was cached
    const project = await this.flagSources.definitions.of(id);
    return buildRemoteConfig(row.api_token, readSettings(row), hasActiveFlag(project.flags));
  }
}

const cohortDefinitions = new WeakMap<ProjectFlags, ReadonlyMap<number, CohortDefinition>>();

/** The cohorts' parsed definitions, once per cached definitions. */
function cohortDefinitionsOf(project: ProjectFlags): ReadonlyMap<number, CohortDefinition> {
  let definitions = cohortDefinitions.get(project);
  if (!definitions) cohortDefinitions.set(project, (definitions = new Map([...project.cohorts].map(([id, cohort]) => [id, cohort.definition]))));
  return definitions;
}

/** PostHog's `hasFeatureFlags`: an active, non-deleted flag. */
const hasActiveFlag = (flags: readonly FlagDefinition[]) => flags.some((flag) => flag.active && !flag.deleted);

async function decodeFlagsBody(input: CaptureRequestInput): Promise<Record<string, unknown>> {
  const payload = await decodeCaptureRequest({ ...input, maxDecodedBytes: MAX_FLAGS_BODY_DECODED_BYTES });
  // The capture decoder reads a JSON object as one event; a flags body is one object.
  return payload.events[0] ?? {};
}

function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}
