// Entry: picks the page for the URL. Pages under /project/ need the signed-in user (GET
// /api/users/@me/; a 401 goes to /login); /login and /shared/:token stand alone.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api';
import { LazyActionEditPage, LazyActionsPage } from './components/actions/LazyActionPages';
import { DashboardPage } from './pages/DashboardPage';
import { DashboardsList } from './pages/DashboardsList';
import { DataManagementPage, DefinitionPage } from './pages/DataManagementPage';
import { EventsPage } from './pages/EventsPage';
import { InsightBuilder } from './pages/InsightBuilder';
import { InsightPage } from './pages/InsightPage';
import { InsightsList } from './pages/InsightsList';
import { LoginPage } from './pages/Login';
import { PersonPage } from './pages/PersonPage';
import { GroupsPage } from './pages/GroupsPage';
import { GroupPage } from './pages/GroupPage';
import { PersonsPage } from './pages/PersonsPage';
import { CohortsPage } from './pages/CohortsPage';
import { CohortPage } from './pages/CohortPage';
import { FeatureFlagEditPage } from './pages/FeatureFlagEditPage';
import { FeatureFlagPage } from './pages/FeatureFlagPage';
import { FeatureFlagsPage } from './pages/FeatureFlagsPage';
import { SettingsPage } from './pages/SettingsPage';
import { SettingsSection } from './pages/settings/SettingsSection';
import { SettingsTabs } from './pages/settings/SettingsTabs';
import { SignupPage } from './pages/Signup';
import { SharedPage } from './pages/SharedPage';
import { LazySqlEditorPage } from './components/sql/LazySqlEditorPage';
import { WebAnalyticsPage } from './pages/WebAnalyticsPage';
import { LazyRecordingPage, LazyRecordingsPage } from './pages/replay/LazyReplayPages';
import { Shell } from './pages/Shell';
import { match, navigate, useLocation, type Route } from './router';
import { MeContext, UpdateMeContext } from './session';
import type { Me } from './types';
import './styles.css';

function App() {
  const { pathname, search } = useLocation();
  const route = match(pathname, search);
  useEffect(() => {
    document.title = route.name === 'login' ? 'Sign in · Hoglet' : 'Hoglet';
  }, [route.name]);
  if (route.name === 'login') return <LoginPage next={route.next} />;
  if (route.name === 'shared') return <SharedPage token={route.token} />;
  if (route.name === 'signup') return <SignupPage invite={route.invite} />;
  return <SignedIn route={route} />;
}

function SignedIn({ route }: { route: Exclude<Route, { name: 'login' } | { name: 'shared' } | { name: 'signup' }> }) {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Me>('/api/users/@me/')
      .then(setMe)
      .catch((e) => { if (!(e instanceof ApiError && e.status === 401)) setError(e instanceof ApiError ? e.message : String(e)); });
  }, []);
  useEffect(() => {
    // "/" opens the current project's insights.
    if (me && route.name === 'home') navigate(me.team ? `/project/${me.team.id}/insights` : '/not-found', true);
  }, [me, route.name]);

  if (error) return <main class="center"><p class="error" role="alert">{error}</p></main>;
  if (!me) return <main class="center"><p class="muted">Loading…</p></main>;
  return (
    <UpdateMeContext.Provider value={(change) => setMe((m) => (m ? change(m) : m))}>
      <MeContext.Provider value={me}>{page(route)}</MeContext.Provider>
    </UpdateMeContext.Provider>
  );
}

function page(route: Route) {
  switch (route.name) {
    case 'insights':
      return <Shell project={route.project} section="insights"><InsightsList project={route.project} /></Shell>;
    case 'insight':
      return <Shell project={route.project} section="insights"><InsightPage project={route.project} shortId={route.shortId} /></Shell>;
    case 'insight-new':
      return <Shell project={route.project} section="insights"><InsightBuilder key="new" project={route.project} /></Shell>;
    case 'insight-edit':
      return <Shell project={route.project} section="insights"><InsightBuilder key={route.shortId} project={route.project} shortId={route.shortId} /></Shell>;
    case 'events':
      return <Shell project={route.project} section="events"><EventsPage project={route.project} /></Shell>;
    case 'persons':
      return <Shell project={route.project} section="persons"><PersonsPage project={route.project} /></Shell>;
    case 'person':
      return <Shell project={route.project} section="persons"><PersonPage project={route.project} id={route.id} /></Shell>;
    case 'groups':
      return <Shell project={route.project} section="groups"><GroupsPage project={route.project} index={route.index} /></Shell>;
    case 'group':
      return <Shell project={route.project} section="groups"><GroupPage key={`${route.index}-${route.key}`} project={route.project} index={route.index} groupKey={route.key} /></Shell>;
    case 'cohorts':
      return <Shell project={route.project} section="cohorts"><CohortsPage project={route.project} /></Shell>;
    case 'cohort':
      return <Shell project={route.project} section="cohorts"><CohortPage key={route.id} project={route.project} id={route.id} /></Shell>;
    case 'actions':
      return <Shell project={route.project} section="actions"><LazyActionsPage project={route.project} /></Shell>;
    case 'action-new':
      return <Shell project={route.project} section="actions"><LazyActionEditPage key="new" project={route.project} /></Shell>;
    case 'action':
      return <Shell project={route.project} section="actions"><LazyActionEditPage key={route.id} project={route.project} id={route.id} /></Shell>;
    case 'flags':
      return <Shell project={route.project} section="flags"><FeatureFlagsPage project={route.project} /></Shell>;
    case 'flag':
      return <Shell project={route.project} section="flags"><FeatureFlagPage key={route.id} project={route.project} id={route.id} /></Shell>;
    case 'flag-new':
      return <Shell project={route.project} section="flags"><FeatureFlagEditPage key="new" project={route.project} /></Shell>;
    case 'flag-edit':
      return <Shell project={route.project} section="flags"><FeatureFlagEditPage key={`edit-${route.id}`} project={route.project} id={route.id} /></Shell>;
    case 'settings':
      return <Shell project={route.project} section="settings"><SettingsTabs project={route.project} current="project" /><SettingsPage key={route.project} project={route.project} /></Shell>;
    case 'settings-section':
      return <Shell project={route.project} section="settings"><SettingsTabs project={route.project} current={route.tab} /><SettingsSection key={`${route.project}-${route.tab}`} project={route.project} tab={route.tab} /></Shell>;
    case 'dashboards':
      return <Shell project={route.project} section="dashboards"><DashboardsList project={route.project} /></Shell>;
    case 'dashboard':
      return <Shell project={route.project} section="dashboards"><DashboardPage project={route.project} id={route.id} /></Shell>;
    case 'web':
      return <Shell project={route.project} section="web"><WebAnalyticsPage project={route.project} /></Shell>;
    case 'recordings':
      return <Shell project={route.project} section="replay"><LazyRecordingsPage project={route.project} /></Shell>;
    case 'recording':
      return <Shell project={route.project} section="replay"><LazyRecordingPage key={route.sessionId} project={route.project} sessionId={route.sessionId} /></Shell>;
    case 'sql':
      return <Shell project={route.project} section="sql"><LazySqlEditorPage key={route.project} project={route.project} openInsight={route.openInsight} /></Shell>;
    case 'data-management':
      return <Shell project={route.project} section="data"><DataManagementPage key={route.kind} project={route.project} kind={route.kind} /></Shell>;
    case 'definition':
      return <Shell project={route.project} section="data"><DefinitionPage key={route.id} project={route.project} kind={route.kind} id={route.id} /></Shell>;
    case 'home':
      return <main class="center"><p class="muted">Loading…</p></main>;
    default:
      return <main class="center"><h1>Page not found</h1><p><a href="/">Go to insights</a></p></main>;
  }
}

render(<App />, document.getElementById('app')!);
