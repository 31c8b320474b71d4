// A project's annotations, loaded once and shared by every chart on the page (a dashboard's tiles
// read one list); a write reloads it and tells every chart.
import { api } from '../../api';
import type { UserBasic } from '../../types';

export type AnnotationScope = 'dashboard_item' | 'dashboard' | 'project' | 'organization';

/** PostHog's AnnotationSerializer, as the app reads it. */
export interface Annotation {
  id: number;
  content: string | null;
  date_marker: string | null;
  scope: AnnotationScope;
  dashboard_item: number | null;
  dashboard_id: number | null;
  created_by: UserBasic | null;
  created_at: string | null;
}

/** Where a chart is drawn: which insight and which dashboard, for PostHog's rule of what shows. */
export interface AnnotationPlace {
  projectId: string;
  insightId: number | null;
  dashboardId: number | null;
}

const lists = new Map<string, Promise<Annotation[]>>();
const listeners = new Set<() => void>();

const base = (projectId: string) => `/api/projects/${projectId}/annotations/`;

export function loadAnnotations(projectId: string): Promise<Annotation[]> {
  let list = lists.get(projectId);
  if (!list) {
    list = api<{ results: Annotation[] }>(`${base(projectId)}?limit=1000`).then((body) => body.results);
    // A failed load is forgotten so the next chart asks again.
    list.catch(() => lists.delete(projectId));
    lists.set(projectId, list);
  }
  return list;
}

export function onAnnotationsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(projectId: string) {
  lists.delete(projectId);
  for (const listener of listeners) listener();
}

export async function saveAnnotation(projectId: string, id: number | null, body: Record<string, unknown>): Promise<Annotation> {
  const saved = await api<Annotation>(id === null ? base(projectId) : `${base(projectId)}${id}/`, { method: id === null ? 'POST' : 'PATCH', body });
  changed(projectId);
  return saved;
}

/** PostHog keeps annotations: deleting is a PATCH with deleted: true. */
export async function deleteAnnotation(projectId: string, id: number): Promise<void> {
  await api(`${base(projectId)}${id}/`, { method: 'PATCH', body: { deleted: true } });
  changed(projectId);
}

/** PostHog's rule: insight ones on that insight, dashboard ones on that dashboard, the rest everywhere. */
export function shownAt(annotation: Annotation, place: AnnotationPlace): boolean {
  if (annotation.date_marker === null) return false;
  if (annotation.scope === 'dashboard_item') return place.insightId !== null && annotation.dashboard_item === place.insightId;
  if (annotation.scope === 'dashboard') return place.dashboardId !== null && annotation.dashboard_id === place.dashboardId;
  return true;
}

/** A chart's bucket start ("2026-11-20" or "2026-11-20 13:00:00") as a time (UTC). */
export function bucketTime(day: string | number): number {
  const text = String(day);
  return Date.parse(/\d{2}:\d{2}/.test(text) ? `${text.replace(' ', 'T')}Z` : `${text}T00:00:00Z`);
}

/** The bucket an instant falls in, or -1 outside the chart (the last bucket is as long as the one before it). */
export function bucketOf(days: readonly (string | number)[], at: number): number {
  const starts = days.map(bucketTime);
  if (starts.length === 0 || Number.isNaN(at) || at < starts[0]!) return -1;
  for (let i = starts.length - 1; i >= 0; i--) {
    if (at >= starts[i]!) {
      const width = starts.length > 1 ? starts[Math.max(1, i)]! - starts[Math.max(1, i) - 1]! : 86_400_000;
      return i < starts.length - 1 || at < starts[i]! + width ? i : -1;
    }
  }
  return -1;
}

/** The annotations of each bucket, for the ones shown at this place. */
export function byBucket(annotations: readonly Annotation[], place: AnnotationPlace, days: readonly (string | number)[]): Map<number, Annotation[]> {
  const buckets = new Map<number, Annotation[]>();
  for (const annotation of annotations) {
    if (!shownAt(annotation, place)) continue;
    const index = bucketOf(days, Date.parse(annotation.date_marker!));
    if (index < 0) continue;
    buckets.set(index, [...(buckets.get(index) ?? []), annotation]);
  }
  return buckets;
}
