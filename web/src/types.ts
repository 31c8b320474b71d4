// The parts of Hoglet's (PostHog's) API objects this app reads. Query nodes stay loose: the app
// edits a few known fields and passes everything else back untouched.
export type QueryNode = Record<string, any>;

export interface UserBasic {
  id: number;
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface TeamBasic {
  id: number;
  name: string;
}

export interface Me extends UserBasic {
  team: TeamBasic | null;
  organization: { id: string; name: string; teams: TeamBasic[] } | null;
  organizations: { id: string; name: string }[];
}

export interface Insight {
  id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  query: QueryNode | null;
  filters: Record<string, any> | null;
  result: any;
  tags: string[];
  favorited: boolean;
  created_by: UserBasic | null;
  last_modified_at?: string;
  last_viewed_at?: string | null;
  last_refresh: string | null;
  is_cached?: boolean;
  /** When the cached result counts as stale (PostHog's per-interval threshold). */
  cache_target_age?: string | null;
  query_status?: { id?: string; complete?: boolean; error?: boolean; error_message?: string | null } | null;
  timezone?: string;
  /** Ids of the dashboards the insight is on. */
  dashboards?: number[];
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface TileLayout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Tile {
  id: number;
  insight: Insight | null;
  layouts: { sm?: TileLayout; xs?: TileLayout } | null;
  order?: number;
  last_refresh?: string | null;
  is_cached?: boolean;
}

export interface Dashboard {
  id: number;
  name: string;
  description: string | null;
  pinned?: boolean;
  created_at?: string;
  created_by?: UserBasic | null;
  tags?: string[];
  /** The effective filters (with ?filters_override= laid over the stored ones). */
  filters?: DashboardFilters | null;
  /** What is stored; null when nothing is. */
  persisted_filters?: DashboardFilters | null;
  tiles?: Tile[];
}

/** Which number a click picked: a title for the People panel and the InsightActorsQuery fields. */
export interface ActorTarget {
  title: string;
  params: Record<string, unknown>;
}

/** A dashboard's filters: a date range over every tile, and property filters ANDed to each. */
export interface DashboardFilters {
  date_from?: string | null;
  date_to?: string | null;
  properties?: unknown;
  [other: string]: unknown;
}
