// Accounts for the administrator's command line: users, their web app passwords, organizations and
// personal API keys.
import { randomBytes } from 'node:crypto';
import { ApiError, ValidationError } from '../../errors.js';
import type { PersonalApiKey } from '../../storage/meta/repositories/api-keys.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { UserRow } from '../../storage/meta/repositories/users.js';
import { checkPasswordStrength, hashPassword } from '../auth/passwords.js';
import { MembershipLevel } from '../auth/principal.js';
import type { ProjectsService } from '../projects/service.js';
import { findInvalidScope } from '../scopes.js';
import { hashPersonalApiKey, maskKey, newPersonalApiKeyValue, nowIso, uuidv7 } from '../tokens.js';

export const DEFAULT_ORGANIZATION_NAME = 'Default organization';
export const DEFAULT_PROJECT_NAME = 'Default project';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface BootstrapInput {
  email: string;
  organizationName?: string | undefined;
  projectName?: string | undefined;
  scopes: string[];
  label?: string | undefined;
  /** Also sets the user's web app password. */
  password?: string | undefined;
}

export interface BootstrapResult {
  organization_id: string;
  project_id: number;
  project_api_token: string;
  personal_api_key: string;
  user_id: number;
}

export interface CreatedKey {
  key: PersonalApiKey;
  /** The plain key: shown once, never stored. */
  value: string;
}

function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw new ValidationError('Enter a valid email address.', 'email', 'invalid_input');
  return trimmed;
}

function checkScopes(scopes: string[]): void {
  if (scopes.length === 0) throw new ValidationError('At least one scope is required.', 'scopes', 'required');
  const invalid = findInvalidScope(scopes);
  if (invalid !== null) throw new ValidationError(`Invalid scope: ${invalid}`, 'scopes');
}

function slugify(name: string): string {
  const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.slice(0, 40) || 'organization';
}

export class AccountsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Makes sure the user, their organization (user as owner) and a project exist, reusing any that
   * already do, and issues a new personal API key.
   */
  async bootstrap(input: BootstrapInput): Promise<BootstrapResult> {
    checkScopes(input.scopes);
    if (input.password !== undefined) checkPasswordStrength(input.password);
    const user = await this.findOrCreateUser(input.email);
    if (input.password !== undefined) await this.storePassword(user.id, input.password);
    const organizationName = input.organizationName?.trim() || DEFAULT_ORGANIZATION_NAME;
    const organizationId =
      (await this.repositories.organizations.findMemberByName(user.id, organizationName))?.id ??
      (await this.createOrganization(user.id, organizationName));
    const projectName = input.projectName?.trim() || DEFAULT_PROJECT_NAME;
    const project =
      (await this.repositories.projects.findByNameInOrganization(organizationId, projectName)) ??
      (await this.projects.createInOrganization(user.id, organizationId, { name: projectName }));
    await this.repositories.users.setCurrent(user.id, organizationId, project.id);
    const { value } = await this.issueKey(user, input.scopes, input.label ?? 'bootstrap');
    return {
      organization_id: organizationId,
      project_id: project.id,
      project_api_token: project.api_token,
      personal_api_key: value,
      user_id: user.id,
    };
  }

  /** Sets the user's web app password and signs them out of every browser. */
  async setPassword(email: string, password: string): Promise<void> {
    checkPasswordStrength(password);
    await this.storePassword((await this.requireUser(email)).id, password);
  }

  private async storePassword(userId: number, password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.repositories.transaction(async (repos) => {
      await repos.users.setPasswordHash(userId, hash);
      await repos.userSessions.deleteForUser(userId);
    });
  }

  async createKey(email: string, scopes: string[], label: string): Promise<CreatedKey> {
    checkScopes(scopes);
    return this.issueKey(await this.requireUser(email), scopes, label);
  }

  async listKeys(email: string): Promise<PersonalApiKey[]> {
    return this.repositories.apiKeys.listForUser((await this.requireUser(email)).id);
  }

  /** Deletes the key; every server sharing this store stops accepting it within a second. */
  async revokeKey(id: string): Promise<boolean> {
    return this.repositories.transaction(async (repos) => {
      const deleted = await repos.apiKeys.delete(id);
      if (deleted) await repos.apiKeys.bumpEpoch();
      return deleted;
    });
  }

  private async issueKey(user: UserRow, scopes: string[], label: string): Promise<CreatedKey> {
    const cleanLabel = label.trim();
    if (cleanLabel === '') throw new ValidationError('This field may not be blank.', 'label', 'blank');
    if (cleanLabel.length > 40) {
      throw new ValidationError('Ensure this field has no more than 40 characters.', 'label', 'max_length');
    }
    const value = newPersonalApiKeyValue();
    const key: PersonalApiKey = {
      id: uuidv7(),
      user_id: user.id,
      label: cleanLabel,
      mask_value: maskKey(value),
      scopes: [...scopes],
      scoped_organizations: null,
      scoped_teams: null,
      created_at: nowIso(),
      last_used_at: null,
    };
    await this.repositories.apiKeys.insert({ ...key, secure_value: hashPersonalApiKey(value) });
    return { key, value };
  }

  private async requireUser(email: string): Promise<UserRow> {
    const user = await this.repositories.users.findByEmail(normaliseEmail(email));
    if (!user) throw new ApiError(404, 'invalid_request', 'not_found', `No user with email ${email.trim()}.`, 'email');
    return user;
  }

  private async findOrCreateUser(email: string): Promise<UserRow> {
    const address = normaliseEmail(email);
    const existing = await this.repositories.users.findByEmail(address);
    if (existing) return existing;
    return this.repositories.users.insert({
      uuid: uuidv7(),
      distinct_id: randomBytes(24).toString('base64url'),
      first_name: address.split('@')[0] ?? '',
      last_name: '',
      email: address,
      is_email_verified: 0,
      hedgehog_config: null,
      current_organization_id: null,
      current_project_id: null,
      created_at: nowIso(),
      password_hash: null,
    });
  }

  private async createOrganization(userId: number, name: string): Promise<string> {
    const id = uuidv7();
    let slug = slugify(name);
    while (await this.repositories.organizations.slugTaken(slug)) {
      slug = `${slugify(name)}-${randomBytes(3).toString('hex')}`;
    }
    const now = nowIso();
    await this.repositories.transaction(async (repos) => {
      await repos.organizations.insert({ id, name, slug, created_at: now, updated_at: now });
      await repos.organizations.addMember(id, userId, MembershipLevel.owner, now);
    });
    return id;
  }
}
