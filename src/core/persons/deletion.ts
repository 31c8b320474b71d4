// Deleting persons as PostHog's person API does (issue 32): DELETE …/persons/:id/ (202, with
// ?delete_events), POST …/persons/bulk_delete/ with `ids` or `distinct_ids` (202 and a summary)
// and POST …/persons/:id/delete_property/ with {"$unset": key} (201, a $delete_person_property
// event through capture, as PostHog sends). Unlike PostHog, which queues event deletion for a
// weekly job, the events go before the answer: reads exclude them at once (lightweight DELETE).
import { NotFoundError, ValidationError } from '../../errors.js';
import type { PersonDeletionsRepository } from '../../storage/events/person-deletions.js';
import type { DistinctIdRow, PersonRow, PersonsRepository, PersonWrites } from '../../storage/events/persons-repository.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import { activityPage, detail, recordActivity } from '../activity.js';
import type { Principal } from '../auth/principal.js';
import type { CapturedEvent } from '../capture/types.js';
import type { RecordingRemovals } from '../replay/recording-removal.js';
import { uuidv7 } from '../tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** PostHog's limit per bulk_delete call. */
export const BULK_DELETE_LIMIT = 1000;

/** What the deletion needs from capture, which runs in the same process. */
export interface PersonDeletionCapture {
  /** Waits until every event acknowledged before now is stored, with its persons. */
  settled(): Promise<void>;
  /** Runs `work` while capture's writer is between two writes, then makes it forget cached persons. */
  betweenWrites<T>(work: () => Promise<T>): Promise<T>;
  /** The tombstones written (the flags' cached persons copy them). */
  written(writes: PersonWrites): void;
  /** Stores events of a project through capture (delete_property's event). */
  ingest(teamId: number, events: CapturedEvent[]): Promise<void>;
}

export interface BulkDeleteSummary {
  persons_found: number;
  persons_deleted: number;
  events_queued_for_deletion: boolean;
  recordings_queued_for_deletion: boolean;
  deletion_errors: { person_uuid: string }[];
}

interface Deletion {
  ids?: string[] | undefined;
  distinctIds?: string[] | undefined;
  deleteEvents: boolean;
  keepPerson: boolean;
}

export class PersonDeletionService {
  constructor(
    private readonly access: AccessResolver,
    private readonly repositories: Repositories,
    private readonly persons: PersonsRepository,
    private readonly deletions: PersonDeletionsRepository,
    private readonly capture: PersonDeletionCapture,
    /** A deleted person's recordings go with them (issue 33). */
    private readonly recordings: RecordingRemovals | null = null,
  ) {}

  /** DELETE …/persons/:id/: 404 for a person not in the project. */
  async destroy(principal: Principal, projectParam: string, idParam: string, query: Record<string, unknown>): Promise<void> {
    const project = await this.access.project(principal, projectParam);
    if (!UUID.test(idParam)) throw new NotFoundError();
    await this.capture.settled();
    const found = await this.persons.persons(project.id, [idParam.toLowerCase()]);
    if (found.length === 0) throw new NotFoundError();
    await this.run(principal, project, { ids: [idParam.toLowerCase()], deleteEvents: present(query.delete_events), keepPerson: present(query.keep_person) });
  }

  /** POST …/persons/bulk_delete/: `ids` or `distinct_ids`, at most 1000, never both. */
  async bulkDelete(principal: Principal, projectParam: string, body: Record<string, unknown>): Promise<BulkDeleteSummary> {
    const project = await this.access.project(principal, projectParam);
    const ids = stringList(body.ids, 'ids');
    const distinctIds = stringList(body.distinct_ids, 'distinct_ids');
    if (ids && distinctIds) throw new ValidationError('You must provide either distinct_ids or ids, not both', null);
    if (distinctIds && distinctIds.length > BULK_DELETE_LIMIT) throw new ValidationError('You can only pass 1000 distinct_ids in one call', null);
    if (ids && ids.length > BULK_DELETE_LIMIT) throw new ValidationError('You can only pass 1000 ids in one call', null);
    if (!ids && !distinctIds) throw new ValidationError('You need to specify either distinct_ids or ids', null);
    return this.run(principal, project, { ids, distinctIds, deleteEvents: truthy(body.delete_events), keepPerson: truthy(body.keep_person) });
  }

  /** POST …/persons/:id/delete_property/: PostHog sends a $delete_person_property event with $unset. */
  async deleteProperty(principal: Principal, projectParam: string, idParam: string, body: Record<string, unknown>): Promise<{ success: true }> {
    const project = await this.access.project(principal, projectParam);
    const key = body.$unset;
    if (typeof key !== 'string' || key === '') throw new ValidationError('This field is required.', '$unset', 'required');
    if (!UUID.test(idParam)) throw new NotFoundError();
    const personId = idParam.toLowerCase();
    await this.capture.settled();
    if ((await this.persons.persons(project.id, [personId])).length === 0) throw new NotFoundError();
    const [first] = (await this.persons.distinctIdsOfPersons(project.id, [personId])).map((row) => row.distinct_id).sort();
    if (first === undefined) throw new NotFoundError();
    const event: CapturedEvent = {
      uuid: uuidv7(),
      event: '$delete_person_property',
      distinctId: first,
      properties: { $unset: [key] },
      timestampUs: Date.now() * 1000,
      historicalMigration: false,
    };
    await this.capture.ingest(project.id, [event]);
    await recordActivity(this.repositories.activityLog, {
      organizationId: project.organization_id,
      projectId: project.id,
      userId: principal.userId,
      scope: 'Person',
      itemId: personId,
      activity: 'delete_property',
      detail: detail(personId, [{ type: 'Person', action: 'changed', field: key, before: null, after: null }]),
    });
    return { success: true };
  }

  /** PostHog's persons activity (scope Person): one person's entries, or the project's. Deleted persons' stay readable. */
  async activity(principal: Principal, projectParam: string, idParam: string | null, page: { limit: number; page: number }) {
    const project = await this.access.project(principal, projectParam);
    const itemId = idParam === null ? null : idParam.toLowerCase();
    return activityPage(this.repositories.activityLog, project.id, 'Person', itemId, page);
  }

  private async run(principal: Principal, project: ProjectRow, deletion: Deletion): Promise<BulkDeleteSummary> {
    // Events acknowledged before the request are stored (with their persons) before anything goes.
    await this.capture.settled();
    const gone = await this.capture.betweenWrites(async () => {
      const persons = await this.resolve(project.id, deletion);
      const mappings = await this.persons.distinctIdsOfPersons(project.id, persons.map((p) => p.id));
      // The person ids their stored events carry, read before the tombstones: after them, a
      // deleted distinct id's next event carries a new person, which the DELETE below leaves alone.
      const carried = deletion.deleteEvents ? await this.deletions.personIdsOfEvents(project.id, mappings.map((m) => m.distinct_id), persons.map((p) => p.id)) : [];
      if (!deletion.keepPerson && persons.length > 0) {
        const tombstones = this.deletions.tombstones(persons, mappings);
        await this.deletions.write(project.id, tombstones);
        this.capture.written({ ...tombstones, groups: [], groupTypes: [] });
      }
      return { persons, distinctIds: mappings.map((m) => m.distinct_id), carried };
    });
    // The events go while capture writes on: their DELETEs take seconds on a big project, and a
    // pause that long would answer every project's capture 503. What was acknowledged before the
    // tombstones is stored first, so the DELETE finds it.
    if (deletion.deleteEvents && gone.carried.length > 0) {
      await this.capture.settled();
      await this.deletions.deleteEvents(project.id, gone.distinctIds, gone.persons.map((p) => p.id), gone.carried);
    }
    // Unlike PostHog (only with delete_recordings, in a later job), a deleted person's recordings go
    // now, blocks and summary rows; the answer says so when there were any.
    let recordingsRemoved = 0;
    if (this.recordings && !deletion.keepPerson && gone.persons.length > 0) {
      recordingsRemoved = await this.recordings.remove(project.id, await this.recordings.ofDistinctIds(project.id, gone.distinctIds));
    }
    // Capture's writers in other processes sharing the stores forget their cached persons too.
    if (!deletion.keepPerson && gone.persons.length > 0) await this.repositories.counters.advance('persons_deleted_epoch');
    // Any calculated result may have counted them, and any cohort's count.
    await this.repositories.queryCache.forgetTeam(project.id);
    if (gone.persons.length > 0) await this.repositories.cohorts.recountDynamic(project.id);
    if (!deletion.keepPerson) {
      for (const { cohortId, count } of await this.deletions.leaveStaticCohorts(project.id, gone.persons.map((p) => p.id))) {
        await this.repositories.cohorts.update(project.id, cohortId, { count });
      }
      for (const person of gone.persons) {
        await recordActivity(this.repositories.activityLog, {
          organizationId: project.organization_id,
          projectId: project.id,
          userId: principal.userId,
          scope: 'Person',
          itemId: person.id,
          activity: 'deleted',
          detail: detail(person.id),
        });
      }
    }
    return {
      persons_found: gone.persons.length,
      persons_deleted: deletion.keepPerson ? 0 : gone.persons.length,
      events_queued_for_deletion: deletion.deleteEvents && gone.persons.length > 0,
      recordings_queued_for_deletion: recordingsRemoved > 0,
      deletion_errors: [],
    };
  }

  /** The live persons named by uuid or by one of their distinct ids. */
  private async resolve(teamId: number, deletion: Deletion): Promise<PersonRow[]> {
    const ids = new Set((deletion.ids ?? []).filter((id) => UUID.test(id)).map((id) => id.toLowerCase()));
    if (deletion.distinctIds && deletion.distinctIds.length > 0) {
      const rows: DistinctIdRow[] = await this.persons.distinctIds(teamId, deletion.distinctIds);
      for (const row of rows) ids.add(row.person_id);
    }
    return ids.size === 0 ? [] : this.persons.persons(teamId, [...ids]);
  }
}

/**
 * For capture's writer: whether persons were deleted (the shared epoch moved) since it last said
 * so, read at most once per interval. A failed read says no: capture never fails on it.
 */
export function personsDeletedWatch(readEpoch: () => Promise<number>, intervalMs = 1000): () => Promise<boolean> {
  let seen: number | null = null;
  let checkedAt = 0;
  return async () => {
    const now = Date.now();
    if (now - checkedAt < intervalMs) return false;
    checkedAt = now;
    try {
      const epoch = await readEpoch();
      const moved = seen !== null && epoch !== seen;
      seen = epoch;
      return moved;
    } catch {
      return false;
    }
  };
}

/** A list of strings, or undefined when absent (or empty, as PostHog's truthiness reads it). */
function stringList(value: unknown, attr: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new ValidationError('Expected a list of strings.', attr);
  return value.length === 0 ? undefined : value;
}

/** PostHog reads `delete_events` in the query string by its presence; an explicit false or 0 is honoured here. */
function present(value: unknown): boolean {
  return value !== undefined && !(typeof value === 'string' && ['false', '0'].includes(value.trim().toLowerCase()));
}

/** PostHog's bool() of a body field; the strings "false" and "0" count as false here. */
function truthy(value: unknown): boolean {
  if (typeof value === 'string') return value !== '' && !['false', '0'].includes(value.trim().toLowerCase());
  return Boolean(value);
}
