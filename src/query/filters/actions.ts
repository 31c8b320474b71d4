// An action as a condition: any of its steps; a step is its event AND its URL, element and
// property conditions. A missing or deleted action matches nothing (PostHog's `1 = 2`).
import { and, binary, call, constant, eq, FALSE, or } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { ActionDefinition, ActionStep } from '../context.js';
import { readProperties } from '../nodes/read-properties.js';
import type { EventSource } from './event-source.js';
import { likePattern, propertyGroupExpr } from './properties.js';

export function actionExpr(action: ActionDefinition | undefined, source: EventSource, timezone: string): Expr {
  if (!action || action.steps.length === 0) return FALSE;
  return or(...action.steps.map((step) => stepExpr(step, source, timezone)));
}

/** The event names an action can match, or null when some step matches any event. */
export function actionEventNames(action: ActionDefinition | undefined): string[] | null {
  if (!action) return [];
  const names = action.steps.map((s) => s.event ?? null);
  return names.includes(null) ? null : [...new Set(names as string[])];
}

function stepExpr(step: ActionStep, source: EventSource, timezone: string): Expr {
  const conditions: (Expr | undefined)[] = [];
  if (step.event) conditions.push(eq(source.event, constant(step.event)));
  if (step.url) conditions.push(textMatch(source.eventProperty('$current_url'), step.url, step.url_matching ?? 'contains'));
  const chain = source.elementsChain;
  if (step.tag_name) conditions.push(call('match', chain, constant(`(^|;)${escapeRegex(step.tag_name)}([.:]|$)`)));
  if (step.href) conditions.push(attributeMatch(chain, 'href', step.href, step.href_matching ?? 'exact'));
  if (step.text) conditions.push(attributeMatch(chain, 'text', step.text, step.text_matching ?? 'exact'));
  // CSS selectors would need the element tree; a step we cannot evaluate must not widen the match.
  if (step.selector) conditions.push(FALSE);
  if (step.properties !== undefined && step.properties !== null) {
    conditions.push(propertyGroupExpr(readProperties(step.properties, 'steps.properties'), source, timezone));
  }
  const present = conditions.filter((c): c is Expr => c !== undefined);
  return present.length === 0 ? constant(true) : and(...present);
}

function textMatch(value: Expr, pattern: string, matching: 'contains' | 'exact' | 'regex'): Expr {
  const test = matching === 'exact'
    ? eq(value, constant(pattern))
    : matching === 'regex'
      ? call('match', value, constant(pattern))
      : binary('LIKE', value, constant(likePattern(pattern)));
  return call('ifNull', test, constant(false));
}

/** href="..." and text="..." inside elements_chain, as autocapture writes them. */
function attributeMatch(chain: Expr, name: 'href' | 'text', value: string, matching: 'contains' | 'exact' | 'regex'): Expr {
  const inner = matching === 'exact' ? escapeRegex(value) : matching === 'contains' ? `[^"]*${escapeRegex(value)}[^"]*` : `(${value})`;
  return call('match', chain, constant(`(^|[:";])${name}="${inner}"`));
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
