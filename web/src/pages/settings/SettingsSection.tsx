// The settings sections beyond the project's own, loaded when first opened (the main bundle
// stays small).
import { useEffect, useState } from 'preact/hooks';
import type { JSX } from 'preact';

type Tab = 'projects' | 'members' | 'personal-api-keys' | 'account';

const load: Record<Tab, (project: string) => Promise<JSX.Element>> = {
  projects: async (project) => { const { ProjectsSettings } = await import('./ProjectsSettings'); return <ProjectsSettings project={project} />; },
  members: async () => { const { MembersSettings } = await import('./MembersSettings'); return <MembersSettings />; },
  'personal-api-keys': async () => { const { PersonalKeysSettings } = await import('./PersonalKeysSettings'); return <PersonalKeysSettings />; },
  account: async () => { const { AccountSettings } = await import('./AccountSettings'); return <AccountSettings />; },
};

export function SettingsSection({ project, tab }: { project: string; tab: Tab }) {
  const [page, setPage] = useState<JSX.Element | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    load[tab](project).then(setPage).catch((e) => setError(String(e)));
  }, [project, tab]);
  if (error) return <p class="error" role="alert">{error}</p>;
  return page ?? <p class="muted">Loading…</p>;
}
