// Personal API keys managed by their user (PostHog's PersonalAPIKeyViewSet): the value is shown
// once, in the answer that made or rolled it; only its SHA-256 is stored. A key may read itself and
// nothing else here: keys are made, changed and rolled from a signed-in session.
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.js';
import type { PersonalApiKey } from '../../storage/meta/repositories/api-keys.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { parseOrganizationId, parseProjectId } from '../access.js';
import { detail, diffChanges, recordActivity, type Change } from '../activity.js';
import type { KeyAuthenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { findInvalidScope } from '../scopes.js';
import { hashPersonalApiKey, maskKey, newPersonalApiKeyValue, nowIso, uuidv7 } from '../tokens.js';
import { personalKeyView } from './views.js';

/** PostHog's MAX_API_KEYS_PER_USER. */
export const MAX_API_KEYS_PER_USER = 10;

export interface KeyInput {
  label?: unknown;
  scopes?: unknown;
  scoped_organizations?: unknown;
  scoped_teams?: unknown;
}

const KEY_ACCESS_DENIED = 'This action does not support Personal API Key access';
/** Key ids are UUIDs (v7): anything else names no key, and never reaches the store (PostgreSQL refuses a NUL). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function label(value: unknown): string {
  if (value === undefined || value === null) throw new ValidationError('This field is required.', 'label', 'required');
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', 'label', 'invalid');
  const text = value.trim();
  if (text === '') throw new ValidationError('This field may not be blank.', 'label', 'blank');
  if (text.length > 40) throw new ValidationError('Ensure this field has no more than 40 characters.', 'label', 'max_length');
  return text;
}

/**
 * A key's lists have a budget (a body of 1 MB holds 250,000 ids, each a look-up), and an id
 * repeated is looked up once.
 */
const MAX_LIST_ITEMS = 1000;

function checkListLength(value: readonly unknown[], attr: string): void {
  if (value.length > MAX_LIST_ITEMS) throw new ValidationError(`Ensure this field has no more than ${MAX_LIST_ITEMS} elements.`, attr, 'max_length');
}

function scopes(value: unknown): string[] {
  if (value === undefined || value === null) throw new ValidationError('This field is required.', 'scopes', 'required');
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string')) throw new ValidationError('Expected a list of items.', 'scopes', 'not_a_list');
  checkListLength(value, 'scopes');
  // An empty list would be a legacy key with every scope: Hoglet asks for them by name ('*').
  if (value.length === 0) throw new ValidationError('At least one scope is required.', 'scopes', 'required');
  const invalid = findInvalidScope(value);
  if (invalid !== null) throw new ValidationError(`Invalid scope: ${invalid}`, 'scopes');
  return [...new Set(value as string[])];
}

export class PersonalKeysService {
  constructor(
    private readonly repositories: Repositories,
    private readonly authenticator: KeyAuthenticator,
  ) {}

  async list(principal: Principal) {
    this.sessionOnly(principal);
    const keys = await this.repositories.apiKeys.listForUser(principal.userId);
    return keys.reverse().map((key) => personalKeyView(key));
  }

  /** One key; a key may read only itself (`@current` or its own id). */
  async get(principal: Principal, id: string) {
    if (principal.kind === 'key' && id !== '@current' && id !== principal.keyId) throw new PermissionDeniedError(KEY_ACCESS_DENIED);
    const key = await this.find(principal, id === '@current' && principal.kind === 'key' ? principal.keyId : id);
    return personalKeyView(key);
  }

  async create(principal: Principal, input: KeyInput) {
    this.sessionOnly(principal);
    const key: PersonalApiKey = {
      id: uuidv7(),
      user_id: principal.userId,
      label: label(input.label),
      mask_value: '',
      scopes: scopes(input.scopes),
      scoped_organizations: await this.scopedOrganizations(principal, input.scoped_organizations),
      scoped_teams: await this.scopedTeams(principal, input.scoped_teams),
      created_at: nowIso(),
      last_used_at: null,
      last_rolled_at: null,
    };
    const value = newPersonalApiKeyValue();
    key.mask_value = maskKey(value);
    await this.repositories.transaction(async (repos) => {
      if ((await repos.apiKeys.countForUser(principal.userId)) >= MAX_API_KEYS_PER_USER) {
        throw new ValidationError(`You can only have ${MAX_API_KEYS_PER_USER} personal API keys. Remove an existing key before creating a new one.`, null);
      }
      await repos.apiKeys.insert({ ...key, secure_value: hashPersonalApiKey(value) });
      await this.log(repos, principal.userId, key, 'created');
    });
    return personalKeyView(key, value);
  }

  async update(principal: Principal, id: string, input: KeyInput) {
    this.sessionOnly(principal);
    const key = await this.find(principal, id);
    const change: Parameters<Repositories['apiKeys']['update']>[1] = {};
    if (input.label !== undefined) change.label = label(input.label);
    if (input.scopes !== undefined) change.scopes = scopes(input.scopes);
    const scopedOrganizations = input.scoped_organizations === undefined ? undefined : await this.scopedOrganizations(principal, input.scoped_organizations);
    const scopedTeams = input.scoped_teams === undefined ? undefined : await this.scopedTeams(principal, input.scoped_teams);
    await this.repositories.transaction(async (repos) => {
      await repos.apiKeys.update(key.id, change);
      if (scopedOrganizations !== undefined || scopedTeams !== undefined) {
        await repos.apiKeys.setCeilings(key.id, scopedOrganizations === undefined ? key.scoped_organizations : scopedOrganizations, scopedTeams === undefined ? key.scoped_teams : scopedTeams);
      }
      await repos.apiKeys.bumpEpoch();
      const after = (await repos.apiKeys.findForUser(principal.userId, key.id))!;
      await this.log(repos, principal.userId, after, 'updated', diffChanges('PersonalAPIKey', ['label', 'scopes'], { label: key.label, scopes: key.scopes }, { label: after.label, scopes: after.scopes }));
    });
    this.authenticator.invalidate();
    return personalKeyView((await this.repositories.apiKeys.findForUser(principal.userId, key.id))!);
  }

  /** A new value; the old one answers 401 from now on, in every process within a second. */
  async roll(principal: Principal, id: string) {
    this.sessionOnly(principal);
    const key = await this.find(principal, id);
    const value = newPersonalApiKeyValue();
    await this.repositories.transaction(async (repos) => {
      await repos.apiKeys.roll(key.id, hashPersonalApiKey(value), maskKey(value), nowIso());
      await repos.apiKeys.bumpEpoch();
      const rolledAt = (await repos.apiKeys.findForUser(principal.userId, key.id))!.last_rolled_at ?? null;
      await this.log(repos, principal.userId, key, 'updated', diffChanges('PersonalAPIKey', ['last_rolled_at'], { last_rolled_at: key.last_rolled_at ?? null }, { last_rolled_at: rolledAt }));
    });
    this.authenticator.invalidate();
    return personalKeyView((await this.repositories.apiKeys.findForUser(principal.userId, key.id))!, value);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    this.sessionOnly(principal);
    const key = await this.find(principal, id);
    await this.repositories.transaction(async (repos) => {
      await repos.apiKeys.delete(key.id);
      await repos.apiKeys.bumpEpoch();
      await this.log(repos, principal.userId, key, 'deleted');
    });
    this.authenticator.invalidate();
  }

  /**
   * PostHog logs a key's changes in each organization it reaches (its scoped organizations, those
   * of its scoped projects, or all of the user's); never its value.
   */
  private async log(repos: Repositories, userId: number, key: PersonalApiKey, activity: string, changes: Change[] | null = null): Promise<void> {
    let organizationIds = key.scoped_organizations ?? [];
    if (organizationIds.length === 0 && key.scoped_teams?.length) {
      const projects = await Promise.all(key.scoped_teams.map((id) => repos.projects.findVisible(userId, id)));
      organizationIds = projects.flatMap((p) => (p ? [p.organization_id] : []));
    }
    if (organizationIds.length === 0) organizationIds = (await repos.organizations.listForMember(userId, null, { limit: 1000, offset: 0 })).rows.map((o) => o.id);
    for (const organizationId of new Set(organizationIds)) {
      await recordActivity(repos.activityLog, { organizationId, projectId: null, userId, scope: 'PersonalAPIKey', itemId: key.id, activity, detail: detail(key.label, changes) });
    }
  }

  private sessionOnly(principal: Principal): void {
    if (principal.kind === 'key') throw new PermissionDeniedError(KEY_ACCESS_DENIED);
  }

  private async find(principal: Principal, id: string): Promise<PersonalApiKey> {
    const key = UUID.test(id) ? await this.repositories.apiKeys.findForUser(principal.userId, id.toLowerCase()) : undefined;
    if (!key) throw new NotFoundError();
    return key;
  }

  private async scopedOrganizations(principal: Principal, value: unknown): Promise<string[] | null> {
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) throw new ValidationError('Expected a list of items.', 'scoped_organizations', 'not_a_list');
    checkListLength(value, 'scoped_organizations');
    const ids: string[] = [];
    for (const item of new Set(value)) {
      const id = typeof item === 'string' ? parseOrganizationId(item) : null;
      if (id === null) throw new ValidationError('Invalid organization UUID', 'scoped_organizations');
      const organization = await this.repositories.organizations.findForMember(principal.userId, id);
      if (!organization) throw new ValidationError('You must be a member of all organizations that you are scoping the key to.', 'scoped_organizations');
      ids.push(id);
    }
    return ids.length ? [...new Set(ids)] : null;
  }

  private async scopedTeams(principal: Principal, value: unknown): Promise<number[] | null> {
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) throw new ValidationError('Expected a list of items.', 'scoped_teams', 'not_a_list');
    checkListLength(value, 'scoped_teams');
    const ids: number[] = [];
    for (const item of new Set(value)) {
      if (!Number.isInteger(item)) throw new ValidationError('A valid integer is required.', 'scoped_teams', 'invalid');
      // A project id past PostgreSQL's integer names no project (and must not reach the store).
      const project = parseProjectId(String(item)) === null ? undefined : await this.repositories.projects.findVisible(principal.userId, item as number);
      if (!project) throw new ValidationError('You must be a member of all teams that you are scoping the key to.', 'scoped_teams');
      ids.push(item as number);
    }
    return ids.length ? [...new Set(ids)] : null;
  }
}

