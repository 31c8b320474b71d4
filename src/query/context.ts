// What a runner knows about the project it queries: clock, settings and the actions it may name.
import type { DateTime } from 'luxon';
import type { CohortDefinition } from './cohorts/schema.js';
import type { PathCleaningRule, PropertyGroup } from './nodes/schema.js';

/** An action as the engine needs it: steps with event, URL matching and property filters. */
import type { HogQLNode } from './hogql/translate/hogql-ast.js';
import type { PropertyType } from './catalog/property-type.js';

export interface ActionDefinition {
  readonly id: number;
  readonly name: string;
  readonly steps: readonly ActionStep[];
}

export interface ActionStep {
  readonly event?: string | null;
  readonly url?: string | null;
  readonly url_matching?: 'contains' | 'exact' | 'regex' | null;
  readonly properties?: unknown;
  readonly tag_name?: string | null;
  readonly text?: string | null;
  readonly text_matching?: 'contains' | 'exact' | 'regex' | null;
  readonly href?: string | null;
  readonly href_matching?: 'contains' | 'exact' | 'regex' | null;
  readonly selector?: string | null;
}

export interface ProjectSettings {
  readonly id: number;
  readonly timezone: string;
  readonly weekStartDay: 0 | 1;
  /** Person properties that name a person on screen, first present wins (person_display_name_properties). */
  readonly personDisplayNameProperties?: readonly string[];
}

export interface QueryContext {
  readonly project: ProjectSettings;
  readonly now: DateTime;
  /** Actions named by the query, fetched before running; a missing or deleted one is absent. */
  readonly actions: ReadonlyMap<number, ActionDefinition>;
  /** The project's test-account filters, parsed; empty unless the query filters test accounts. */
  readonly testAccountFilters: PropertyGroup;
  /**
   * The project's path cleaning rules; empty unless the query applies them (paths with
   * pathReplacements, a web stats table with doPathCleaning) or names is_cleaned_path_exact.
   */
  readonly pathCleaningRules: readonly PathCleaningRule[];
  /** Cohorts the query names (filters, breakdowns, test-account filters) and the cohorts they name. */
  readonly cohorts?: ReadonlyMap<number, CohortDefinition>;
  /** HogQL's IN COHORT 'name': the live cohort each name stands for. */
  readonly cohortNames?: ReadonlyMap<string, number>;
  /** HogQL's cohort_people table: the dynamic cohorts its rows hold (query/cohorts/people-table.ts). */
  readonly cohortPeople?: readonly number[];
  /** The query's HogQL expressions (math_hogql, hogql filters and breakdowns), parsed, by text. */
  readonly hogql?: ReadonlyMap<string, HogQLNode>;
  /** The types of the properties those expressions read (hogql/property-types.ts: propertyRefKey), null when unknown. */
  readonly propertyTypes?: ReadonlyMap<string, PropertyType | null>;
  /**
   * The types people set on the project's properties (Data management), by propertyRefKey: they
   * win over the types read from the data (HogQL), and property filters compare by them.
   */
  readonly propertyTypeOverrides?: ReadonlyMap<string, PropertyType>;
}
