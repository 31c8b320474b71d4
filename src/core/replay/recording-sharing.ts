// Sharing one session recording by link, as PostHog's SharingConfiguration.recording: a
// configuration with an access token that, while enabled, lets anyone read that recording's
// metadata and snapshots (the session_recordings item and snapshots routes, and the shared page's
// JSON) without a key, and nothing else of the project. Disabling, or deleting the recording, ends
// it at once: every read looks the token up again, and reads the recording as it is now (404 once
// deleted, by a member or by retention). PostHog writes no activity log for it.
import { NotFoundError, PermissionDeniedError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { CURRENT, type AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import { newAccessToken, sharingView } from '../insights/sharing.js';
import { nowIso } from '../tokens.js';
import type { RecordingsService } from './recordings.js';

/** A session id is PostHog's UUID (or an SDK's own string); longer text is never one. */
const MAX_SESSION_ID = 200;

/** What a valid recording token opens: one session of one project. */
export interface SharedRecording {
  teamId: number;
  sessionId: string;
}

export class RecordingSharingService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly recordings: RecordingsService,
  ) {}

  /** The configuration, or an unsaved default with a fresh token (PostHog builds it without asking the event store). */
  async get(principal: Principal, projectParam: string, sessionId: string) {
    const project = await this.access.project(principal, projectParam);
    return sharingView((await this.repositories.sharing.forRecording(project.id, checkedSessionId(sessionId))) ?? null);
  }

  async update(principal: Principal, projectParam: string, sessionId: string, input: { enabled?: boolean | undefined }) {
    const project = await this.access.project(principal, projectParam);
    const id = checkedSessionId(sessionId);
    const row = await this.repositories.transaction(async (repos) => {
      const existing = (await repos.sharing.forRecording(project.id, id)) ?? (await repos.sharing.insertForRecording(this.newRow(project.id, id)));
      const enabled = input.enabled === undefined ? existing.enabled : input.enabled ? 1 : 0;
      if (enabled !== existing.enabled) await repos.sharing.update(project.id, existing.id, { enabled });
      return { ...existing, enabled };
    });
    return sharingView(row);
  }

  /** A new token; the old link stops working at once. */
  async refresh(principal: Principal, projectParam: string, sessionId: string) {
    const project = await this.access.project(principal, projectParam);
    const id = checkedSessionId(sessionId);
    const row = await this.repositories.transaction(async (repos) => {
      const existing = (await repos.sharing.forRecording(project.id, id)) ?? (await repos.sharing.insertForRecording(this.newRow(project.id, id)));
      const access_token = newAccessToken();
      await repos.sharing.update(project.id, existing.id, { access_token });
      return { ...existing, access_token };
    });
    return sharingView(row);
  }

  /** A sharing token on a route it does not open (the list): 403, as PostHog's SharingTokenPermission. */
  refuse(): never {
    throw refused();
  }

  /**
   * The recording a token opens, checked against the path it is used under (the project and, on the
   * item routes, the session): anything else is refused with 403, as PostHog's SharingTokenPermission.
   */
  async recordingForToken(accessToken: string, projectParam: string | null, sessionId: string | null): Promise<SharedRecording> {
    const shared = await this.lookUp(accessToken);
    if (!shared) throw refused();
    // `@current` is, for someone holding only the token, the project it shares (the shared page knows no id).
    if (projectParam !== null && projectParam !== CURRENT && projectParam !== String(shared.teamId)) throw refused();
    if (sessionId !== null && sessionId !== shared.sessionId) throw refused();
    return shared;
  }

  /** A token's enabled recording configuration, or null (an insight's or dashboard's token included). */
  async lookUp(accessToken: string): Promise<SharedRecording | null> {
    if (accessToken.length > 100) return null;
    const row = await this.repositories.sharing.byToken(accessToken);
    if (!row || row.enabled !== 1 || row.recording_id === null) return null;
    return { teamId: row.team_id, sessionId: row.recording_id };
  }

  /**
   * What a token reads of its recording's metadata (the item route and the shared page), 404 once
   * deleted: PostHog's shared serializer, id and times only, so no person or activity leaks.
   */
  async sharedView(shared: SharedRecording) {
    const { id, recording_duration, start_time, end_time } = await this.recordings.getInProject(shared.teamId, shared.sessionId);
    return { id, recording_duration, start_time, end_time };
  }

  private newRow(teamId: number, sessionId: string) {
    return { team_id: teamId, recording_id: sessionId, enabled: 0, access_token: newAccessToken(), created_at: nowIso() };
  }
}

const refused = () => new PermissionDeniedError('The sharing access token is not valid, or sharing is disabled.');

function checkedSessionId(sessionId: string): string {
  if (sessionId === '' || sessionId.length > MAX_SESSION_ID) throw new NotFoundError();
  return sessionId;
}
