// History-API routing: a path is matched to one of the app's pages; links push state instead of
// reloading. The server answers index.html for every one of these paths.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { name: 'home' }
  | { name: 'login'; next: string | null }
  | { name: 'insights'; project: string }
  | { name: 'insight'; project: string; shortId: string }
  | { name: 'insight-new'; project: string }
  | { name: 'insight-edit'; project: string; shortId: string }
  | { name: 'events'; project: string }
  | { name: 'persons'; project: string }
  | { name: 'person'; project: string; id: string }
  | { name: 'groups'; project: string; index: number | null }
  | { name: 'group'; project: string; index: number; key: string }
  | { name: 'cohorts'; project: string }
  | { name: 'cohort'; project: string; id: string }
  | { name: 'settings'; project: string }
  | { name: 'actions'; project: string }
  | { name: 'action'; project: string; id: string }
  | { name: 'action-new'; project: string }
  | { name: 'flags'; project: string }
  | { name: 'flag'; project: string; id: string }
  | { name: 'flag-new'; project: string }
  | { name: 'flag-edit'; project: string; id: string }
  | { name: 'dashboards'; project: string }
  | { name: 'dashboard'; project: string; id: string }
  | { name: 'web'; project: string }
  | { name: 'recordings'; project: string }
  | { name: 'recording'; project: string; sessionId: string }
  | { name: 'sql'; project: string; openInsight: string | null }
  | { name: 'data-management'; project: string; kind: 'events' | 'properties' }
  | { name: 'definition'; project: string; kind: 'events' | 'properties'; id: string }
  | { name: 'settings-section'; project: string; tab: 'projects' | 'members' | 'personal-api-keys' | 'account' }
  | { name: 'signup'; invite: string }
  | { name: 'shared'; token: string }
  | { name: 'not-found' };

const CHANGE = 'hoglet:navigate';

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  dispatchEvent(new Event(CHANGE));
}

export function match(pathname: string, search: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [a, b, c, d, extra] = parts;
  if (parts.length === 0) return { name: 'home' };
  if (a === 'login' && parts.length === 1) return { name: 'login', next: new URLSearchParams(search).get('next') };
  if (a === 'signup' && b && parts.length === 2) return { name: 'signup', invite: b };
  if (a === 'shared' && b && parts.length === 2) return { name: 'shared', token: b.replace(/\.json$/, '') };
  if (a === 'project' && b && c === 'insights' && d && extra === 'edit' && parts.length === 5) return { name: 'insight-edit', project: b, shortId: d };
  if (a === 'project' && b && c === 'feature_flags' && d && extra === 'edit' && parts.length === 5) return { name: 'flag-edit', project: b, id: d };
  if (a === 'project' && b && c === 'data-management' && (d === 'events' || d === 'properties') && parts.length <= 5) {
    return extra ? { name: 'definition', project: b, kind: d, id: extra } : { name: 'data-management', project: b, kind: d };
  }
  if (a === 'project' && b && c === 'data-management' && !d) return { name: 'data-management', project: b, kind: 'events' };
  if (a === 'project' && b && c === 'groups' && d && /^[0-4]$/.test(d) && extra !== undefined && parts.length === 5) return { name: 'group', project: b, index: Number(d), key: extra };
  if (a === 'project' && b && extra === undefined) {
    if (c === 'insights' && !d) return { name: 'insights', project: b };
    if (c === 'insights' && d === 'new') return { name: 'insight-new', project: b };
    if (c === 'insights' && d) return { name: 'insight', project: b, shortId: d };
    if (c === 'dashboard' && !d) return { name: 'dashboards', project: b };
    if (c === 'dashboard' && d) return { name: 'dashboard', project: b, id: d };
    if (c === 'web' && !d) return { name: 'web', project: b };
    if (c === 'replay' && (!d || d === 'recent')) return { name: 'recordings', project: b };
    if (c === 'replay' && d) return { name: 'recording', project: b, sessionId: d };
    if (c === 'sql' && !d) return { name: 'sql', project: b, openInsight: new URLSearchParams(search).get('open_insight') };
    if (c === 'events' && !d) return { name: 'events', project: b };
    if (c === 'persons' && !d) return { name: 'persons', project: b };
    if (c === 'person' && d) return { name: 'person', project: b, id: d };
    if (c === 'groups' && (!d || /^[0-4]$/.test(d))) return { name: 'groups', project: b, index: d ? Number(d) : null };
    if (c === 'cohorts' && !d) return { name: 'cohorts', project: b };
    if (c === 'cohorts' && d) return { name: 'cohort', project: b, id: d };
    if (c === 'settings' && !d) return { name: 'settings', project: b };
    if (c === 'settings' && (d === 'projects' || d === 'members' || d === 'personal-api-keys' || d === 'account')) return { name: 'settings-section', project: b, tab: d };
    if (c === 'actions' && !d) return { name: 'actions', project: b };
    if (c === 'actions' && d === 'new') return { name: 'action-new', project: b };
    if (c === 'actions' && d) return { name: 'action', project: b, id: d };
    if (c === 'feature_flags' && !d) return { name: 'flags', project: b };
    if (c === 'feature_flags' && d === 'new') return { name: 'flag-new', project: b };
    if (c === 'feature_flags' && d) return { name: 'flag', project: b, id: d };
  }
  return { name: 'not-found' };
}

/** The current path and query, re-rendering on navigation and back/forward. */
export function useLocation(): { pathname: string; search: string } {
  const read = () => ({ pathname: location.pathname, search: location.search });
  const [where, setWhere] = useState(read);
  useEffect(() => {
    const update = () => setWhere(read());
    addEventListener('popstate', update);
    addEventListener(CHANGE, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(CHANGE, update);
    };
  }, []);
  return where;
}

/** A link that navigates in place; modified clicks (new tab...) are left to the browser. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.currentTarget as HTMLAnchorElement | null);
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.getAttribute('href') ?? '/');
}
