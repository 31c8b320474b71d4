// The events one entity names: its event (null: any event) or its action, and, unless asked not
// to, its own property filters. A missing or deleted action matches nothing.
import { and, constant, eq } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { QueryContext } from '../context.js';
import type { PropertyGroup } from '../nodes/schema.js';
import { actionExpr } from './actions.js';
import type { EventSource } from './event-source.js';
import { propertyGroupExpr } from './properties.js';

export type Entity =
  | { readonly kind: 'EventsNode'; readonly event: string | null; readonly properties: PropertyGroup }
  | { readonly kind: 'ActionsNode'; readonly id: number; readonly properties: PropertyGroup };

export function entityMatch(entity: Entity, context: QueryContext, source: EventSource, properties: 'with properties' | 'without properties' = 'with properties'): Expr {
  const { timezone } = context.project;
  const own = properties === 'with properties' ? propertyGroupExpr(entity.properties, source, timezone) : undefined;
  if (entity.kind === 'ActionsNode') return and(actionExpr(context.actions.get(entity.id), source, timezone), own);
  return and(entity.event === null ? undefined : eq(source.event, constant(entity.event)), own) ?? constant(true);
}
