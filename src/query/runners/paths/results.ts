// Edges -> PostHog's answer: the statement already applied the weight bounds, the order and the
// edge limit (they are applied again here, cheaply, so the answer never rests on the engine's
// string order); then only edges reachable from a first step.
import type { PathsQuery } from '../../nodes/schema.js';

export interface PathEdge {
  source: string;
  target: string;
  value: number;
  average_conversion_time: number;
}

export interface PathEdgeRow {
  source: string;
  target: string;
  value: number | string;
  average_conversion_time: number | string;
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function pathResults(query: PathsQuery, rows: readonly PathEdgeRow[]): PathEdge[] {
  const { minEdgeWeight, maxEdgeWeight, edgeLimit } = query.pathsFilter;
  const edges = rows
    .map((row) => ({ source: row.source, target: row.target, value: Number(row.value), average_conversion_time: Number(row.average_conversion_time) }))
    .filter((edge) => (minEdgeWeight === null || edge.value >= minEdgeWeight) && (maxEdgeWeight === null || edge.value <= maxEdgeWeight))
    .sort((a, b) => b.value - a.value || byteOrder(a.source, b.source) || byteOrder(a.target, b.target))
    .slice(0, edgeLimit);
  return reachable(edges);
}

/** Edges whose source is a first step or the target of a kept edge (positions only grow along edges). */
function reachable(edges: PathEdge[]): PathEdge[] {
  const position = (node: string) => Number(node.slice(0, node.indexOf('_')));
  const reached = new Set<string>();
  const kept = new Set<PathEdge>();
  for (const edge of [...edges].sort((a, b) => position(a.source) - position(b.source))) {
    if (position(edge.source) === 1 || reached.has(edge.source)) {
      kept.add(edge);
      reached.add(edge.target);
    }
  }
  return edges.filter((edge) => kept.has(edge));
}
