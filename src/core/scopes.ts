// Personal API key scopes: "<object>:read|write" or "*". write implies read.

export const SCOPE_OBJECTS = [
  'action', 'activity_log', 'annotation', 'batch_export', 'cohort', 'dashboard', 'dashboard_template',
  'early_access_feature', 'event_definition', 'experiment', 'export', 'feature_flag', 'group',
  'hog_function', 'insight', 'notebook', 'organization', 'organization_member', 'person', 'plugin',
  'project', 'property_definition', 'query', 'session_recording', 'session_recording_playlist',
  'sharing_configuration', 'subscription', 'survey', 'user', 'webhook',
] as const;

export type ScopeObject = (typeof SCOPE_OBJECTS)[number];
export type RequiredScope = `${ScopeObject}:${'read' | 'write'}`;

const VALID_SCOPES = new Set<string>(['*', ...SCOPE_OBJECTS.flatMap((o) => [`${o}:read`, `${o}:write`])]);

/** The first scope in the list that is not a known scope, or null when all are valid. */
export function findInvalidScope(scopes: readonly string[]): string | null {
  return scopes.find((scope) => !VALID_SCOPES.has(scope)) ?? null;
}

/** Parses a comma-separated scope list as the CLI takes it ("project:read,insight:write" or "*"). */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
}

export function grantsScope(granted: readonly string[], required: RequiredScope): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  const [object, access] = required.split(':');
  return access === 'read' && granted.includes(`${object}:write`);
}
