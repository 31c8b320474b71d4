// The settings sections: the project's own settings, then the organization's projects and
// members, the user's personal API keys and account.
import { onLinkClick } from '../../router';

export type SettingsTab = 'project' | 'projects' | 'members' | 'personal-api-keys' | 'account';

const TABS: [SettingsTab, string][] = [
  ['project', 'Project'],
  ['projects', 'Projects'],
  ['members', 'Members'],
  ['personal-api-keys', 'Personal API keys'],
  ['account', 'Account'],
];

export const settingsPath = (project: string, tab: SettingsTab) => `/project/${project}/settings${tab === 'project' ? '' : `/${tab}`}`;

export function SettingsTabs({ project, current }: { project: string; current: SettingsTab }) {
  return (
    <nav class="tabs" aria-label="Settings">
      {TABS.map(([tab, label]) => (
        <a role="tab" aria-selected={tab === current} aria-current={tab === current ? 'page' : undefined} href={settingsPath(project, tab)} onClick={onLinkClick} data-testid={`settings-tab-${tab}`}>{label}</a>
      ))}
    </nav>
  );
}
