// The project as the API shows it: full form and the reduced list form, in PostHog's field order.
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import { PROJECT_SETTING_NAMES, defaultValue, type ProjectSettingName } from './settings-catalog.js';

export type ProjectSettings = Record<ProjectSettingName, unknown>;

/** Stored settings completed with catalogue defaults for anything not stored. */
export function readSettings(row: ProjectRow): ProjectSettings {
  return completeSettings(JSON.parse(row.settings) as Record<string, unknown>);
}

const settingOf = (stored: Record<string, unknown>, name: ProjectSettingName): unknown =>
  Object.hasOwn(stored, name) ? stored[name] : defaultValue(name);

function completeSettings(stored: Record<string, unknown>): ProjectSettings {
  const settings = {} as ProjectSettings;
  for (const name of PROJECT_SETTING_NAMES) settings[name] = settingOf(stored, name);
  return settings;
}

/** The HogQL modifiers a fresh project runs with; shown read-only as default_modifiers. */
export const DEFAULT_MODIFIERS = Object.freeze({
  personsOnEventsMode: 'person_id_override_properties_joined',
  personsArgMaxVersion: 'auto',
  inCohortVia: 'auto',
  materializationMode: 'legacy_null_as_null',
  optimizeJoinedFilters: false,
  bounceRatePageViewMode: 'count_pageviews',
  sessionTableVersion: 'auto',
  convertToProjectTimezone: true,
});

/** The identifying fields both forms begin with (a project's id is also its project_id). */
const identity = (row: ProjectRow) => ({
  id: row.id,
  uuid: row.uuid,
  organization: row.organization_id,
  project_id: row.id,
  api_token: row.api_token,
});

/**
 * The spec's reduced form of the project list: exactly 11 fields. (PostHog's
 * ProjectBackwardCompatBasicSerializer also sends project_id; the spec leaves it out.)
 */
export function reducedProjectView(row: ProjectRow) {
  const { project_id: _sameAsId, ...basic } = basicProjectView(row);
  return basic;
}

/** PostHog's TeamBasicSerializer, as @me and organizations show their projects (with project_id). */
export function basicProjectView(row: ProjectRow) {
  const stored = JSON.parse(row.settings) as Record<string, unknown>;
  return {
    ...identity(row),
    name: row.name,
    completed_snippet_onboarding: settingOf(stored, 'completed_snippet_onboarding'),
    has_completed_onboarding_for: settingOf(stored, 'has_completed_onboarding_for'),
    ingested_event: stored.ingested_event === true,
    is_demo: settingOf(stored, 'is_demo'),
    timezone: settingOf(stored, 'timezone'),
    access_control: settingOf(stored, 'access_control'),
  };
}

export function fullProjectView(row: ProjectRow, membershipLevel: number | null) {
  const stored = JSON.parse(row.settings) as Record<string, unknown>;
  const settings = completeSettings(stored);
  return {
    ...identity(row),
    secret_api_token: row.secret_api_token,
    secret_api_token_backup: row.secret_api_token_backup,
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    effective_membership_level: membershipLevel,
    has_group_types: false,
    group_types: [],
    live_events_token: null,
    ingested_event: stored.ingested_event === true,
    person_on_events_querying_enabled: false,
    default_modifiers: DEFAULT_MODIFIERS,
    is_pending_deletion: false,
    ...settings,
  };
}

export type FullProjectView = ReturnType<typeof fullProjectView>;
