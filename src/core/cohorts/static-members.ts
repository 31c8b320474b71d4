// A static cohort's persons: the ones an upload or a list names, resolved to persons of the project
// before anything is written, then stored in the event store. The service records the new count
// and moves the cohort's version (so cached results that used it are recalculated) afterwards,
// outside any metadata transaction: event-store reads wait for capture, which writes metadata.
import { ValidationError } from '../../errors.js';
import type { StaticCohortsRepository } from '../../storage/events/static-cohorts-repository.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { InsightQueryService } from '../queries/service.js';
import { readCsvIds, type CsvIds } from './csv-ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids resolved per statement (bound as one array parameter). */
const RESOLVE_BATCH = 10_000;
/** PostHog's DEFAULT_COHORT_INSERT_BATCH_SIZE: person ids one request may add. */
export const MAX_ADDED_PERSON_IDS = 1000;

export class StaticMembers {
  constructor(
    private readonly store: StaticCohortsRepository,
    private readonly queries: InsightQueryService,
  ) {}

  /** The persons a create or update names (CSV and `_create_static_person_ids`), checked. */
  async personsToAdd(project: ProjectRow, input: { csv?: Buffer | undefined; _create_static_person_ids?: unknown }): Promise<string[]> {
    const persons = new Set<string>();
    if (input._create_static_person_ids !== undefined && input._create_static_person_ids !== null) {
      const ids = personIdList(input._create_static_person_ids, '_create_static_person_ids');
      for (const id of await this.resolve(project.id, { kind: 'person_id', ids })) persons.add(id);
    }
    if (input.csv) for (const id of await this.resolve(project.id, await readCsvIds(input.csv))) persons.add(id);
    return [...persons];
  }

  /** Person ids of the project among `ids` (PATCH add_persons_to_static_cohort). */
  async existing(project: ProjectRow, ids: readonly string[]): Promise<string[]> {
    return this.resolve(project.id, { kind: 'person_id', ids });
  }

  /** Puts persons in (or out of) the static cohort; its count after the change. */
  async put(project: ProjectRow, cohortId: number, persons: readonly string[], member = true): Promise<number> {
    if (persons.length > 0) await this.store.set(project.id, cohortId, persons, member);
    return this.store.count(project.id, cohortId);
  }

  /** Copies the current members of any cohort into a static one; its count after. */
  async copy(project: ProjectRow, sourceId: number, targetId: number): Promise<number> {
    await this.store.copyIn(project.id, targetId, await this.queries.cohortMembersStatement(project, sourceId));
    return this.store.count(project.id, targetId);
  }

  /** Whether the person is in the static cohort now. */
  async contains(project: ProjectRow, cohortId: number, personId: string): Promise<boolean> {
    return (await this.store.membersAmong(project.id, cohortId, [personId])).length > 0;
  }

  private async resolve(teamId: number, { kind, ids }: CsvIds): Promise<string[]> {
    const found: string[] = [];
    for (let at = 0; at < ids.length; at += RESOLVE_BATCH) {
      const batch = ids.slice(at, at + RESOLVE_BATCH);
      if (kind === 'person_id') found.push(...await this.store.existingPersons(teamId, batch.filter((id) => UUID.test(id)).map((id) => id.toLowerCase())));
      else if (kind === 'distinct_id') found.push(...await this.store.personsOfDistinctIds(teamId, batch));
      else found.push(...await this.store.personsWithEmails(teamId, batch));
    }
    return [...new Set(found)];
  }
}

/** A list of person ids (strings), as PostHog's ListField(child=CharField()). */
export function personIdList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new ValidationError(`${field} must be a list`, field, 'not_a_list');
  if (value.some((id) => typeof id !== 'string' && typeof id !== 'number')) throw new ValidationError('Not a valid string.', field);
  return value.map(String);
}
