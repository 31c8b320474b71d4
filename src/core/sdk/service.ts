// What the SDKs' start-up endpoints need from a project: its remote config by capture token, and
// the project a /flags/ or /decide/ body names. Settings are read on every request (one lookup by
// primary key), so a change in the Projects API shows in the next answer; the token itself is
// resolved through the capture token cache, which forgets revoked tokens at once.
import { NotFoundError, ValidationError } from '../../errors.js';
import type { ProjectsRepository } from '../../storage/meta/repositories/projects.js';
import type { Principal } from '../auth/principal.js';
import { InvalidApiKeyError, MissingApiKeyError } from '../capture/capture-errors.js';
import { decodeCaptureRequest, type CaptureRequestInput } from '../capture/decode.js';
import { InvalidProjectTokenError, type ProjectTokens } from '../capture/project-tokens.js';
import type { ProjectsService } from '../projects/service.js';
import { readSettings } from '../projects/view.js';
import { buildRemoteConfig, isWellFormedToken, type RemoteConfig } from './remote-config.js';

/** posthog-node's local-evaluation answer: Hoglet has no flags or cohorts yet. */
export interface FlagDefinitions {
  flags: [];
  group_type_mapping: Record<string, string>;
  cohorts: Record<string, unknown>;
}

/** A flags request is small; PostHog's flags service takes bodies of a few hundred kB. */
const MAX_FLAGS_BODY_DECODED_BYTES = 10 * 1024 * 1024;

/** The project's group types as capture numbered them. */
export type GroupTypesOf = (teamId: number) => Promise<readonly { group_type: string; group_type_index: number }[]>;

export class SdkConfigService {
  constructor(
    private readonly tokens: ProjectTokens,
    private readonly projectRows: ProjectsRepository,
    private readonly projects: ProjectsService,
    private readonly groupTypesOf: GroupTypesOf,
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
   * The remote config of the project a /flags/ or /decide/ request names (body `token`,
   * `api_key` or `$token`, else `?token=`/`?api_key=`), in any body encoding capture accepts.
   * 401 without a valid token, 400 without a distinct_id, as PostHog's flags service.
   */
  async configOfFlagsRequest(input: CaptureRequestInput): Promise<RemoteConfig> {
    const body = await decodeFlagsBody(input);
    const token = body.token ?? body.api_key ?? body.$token ?? first(input.query.token) ?? first(input.query.api_key);
    if (token === undefined || token === null || token === '') throw new MissingApiKeyError();
    if (typeof token !== 'string') throw new InvalidApiKeyError();
    const config = await this.configOf(token);
    const distinctId = body.distinct_id;
    if (distinctId === undefined || distinctId === null) {
      throw new ValidationError('The distinct_id field is missing from the request. Please include a valid identifier.', 'distinct_id', 'required');
    }
    if (String(distinctId).trim() === '') {
      throw new ValidationError('The distinct_id field cannot be empty. Please provide a valid identifier.', 'distinct_id', 'blank');
    }
    return config;
  }

  /**
   * posthog-node's flag definitions for local evaluation. The key must reach the project of
   * `?token=` (or, without one, the caller's current project); the list is always empty, the
   * group type mapping the project's ({"0": "company"}, as PostHog sends it).
   */
  async flagDefinitions(principal: Principal, token: string | undefined): Promise<FlagDefinitions> {
    const projectParam = token === undefined || token === '' ? '@current' : String(await this.tokens.projectIdOf(token));
    const project = await this.projects.get(principal, projectParam);
    const types = await this.groupTypesOf(Number(project.id));
    const mapping = Object.fromEntries(types.map((type) => [String(type.group_type_index), type.group_type]));
    return { flags: [], group_type_mapping: mapping, cohorts: {} };
  }

  private async configOf(token: string): Promise<RemoteConfig> {
    const id = await this.tokens.projectIdOf(token);
    const row = await this.projectRows.findById(id);
    if (!row) throw new InvalidProjectTokenError(); // deleted since the token was cached
    return buildRemoteConfig(row.api_token, readSettings(row));
  }
}

async function decodeFlagsBody(input: CaptureRequestInput): Promise<Record<string, unknown>> {
  const payload = await decodeCaptureRequest({ ...input, maxDecodedBytes: MAX_FLAGS_BODY_DECODED_BYTES });
  // The capture decoder reads a JSON object as one event; a flags body is one object.
  return payload.events[0] ?? {};
}

function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}
