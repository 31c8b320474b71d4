// Path node labels as PostHog's paths chart shows them (its pathUtils' pageUrl): keys are
// "<step>_<page>", pages whole URLs; the chart shows them short, the whole one as a tooltip.
export const nodeLabel = (key: string) => key.replace(/^\d+_/, '');

const asUrl = (text: string): URL | null => {
  try {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? new URL(text) : null;
  } catch {
    return null;
  }
};

/**
 * A node's label as PostHog's paths chart shows it (pathUtils' pageUrl): a URL reached only from
 * pages of one site loses its origin (path, query, and a hash that routes, "#/…"); otherwise the
 * scheme alone goes. Anything else is shown as it is.
 */
export function shortLabel(key: string, incoming: readonly string[]): string {
  const name = nodeLabel(key);
  const url = asUrl(name);
  if (!url) return name;
  const origins = new Set(incoming.map((k) => asUrl(nodeLabel(k))?.origin).filter((o): o is string => !!o));
  let label = origins.size === 1 ? url.pathname + url.search : url.href.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  if (origins.size === 1 && url.hash.includes('/')) label += url.hash;
  try {
    return decodeURI(label);
  } catch {
    return label;
  }
}

/** A label that fits a sankey column: PostHog keeps the first 6 and last 8 characters past 15. */
export const fitted = (label: string) => (label.length > 15 ? `${label.slice(0, 6)}...${label.slice(-8)}` : label);
