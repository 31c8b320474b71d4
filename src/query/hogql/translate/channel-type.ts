// PostHog's channel type of a session (`sessions.$channel_type`): its rules over the session's entry
// UTM values, referring domain and click ids, with the lookups of PostHog's channel definitions
// (channel-definitions.json, PostHog's data file) bound as constant arrays: `transform(key, keys,
// types, '')` stands for PostHog's dictGetOrNull on its channel_definition dictionary.
import { and, call, constant, isNotNull, isNull, not, or } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import definitions from './channel-definitions.json' with { type: 'json' };

type Definition = readonly [key: string, kind: string, domainType: string | null, ifPaid: string | null, ifOrganic: string | null, isApp: boolean];

interface Lookup {
  readonly keys: readonly string[];
  readonly types: readonly string[];
}

function lookupOf(kind: 'source' | 'medium', type: (row: Definition) => string | null): Lookup {
  const keys: string[] = [];
  const types: string[] = [];
  for (const row of definitions as unknown as Definition[]) {
    const value = type(row);
    if (row[1] !== kind || value === null) continue;
    keys.push(row[0]);
    types.push(value);
  }
  return { keys, types };
}

/** A side of PostHog's rules (paid or organic): its source and medium lookups, and its shopping channel. */
interface Side {
  readonly source: Lookup;
  readonly medium: Lookup;
  readonly shopping: string;
}

const PAID: Side = { source: lookupOf('source', (row) => row[3]), medium: lookupOf('medium', (row) => row[3]), shopping: 'Paid Shopping' };
const ORGANIC: Side = { source: lookupOf('source', (row) => row[4]), medium: lookupOf('medium', (row) => row[4]), shopping: 'Organic Shopping' };

const text = (value: string) => constant(value);

/** The type a key has in a lookup, NULL when it has none (PostHog: dictGetOrNull on coalesce(key, '')). */
function exact(lookup: Lookup, key: Expr): Expr {
  const found = call('transform', call('coalesce', key, text('')), constant([...lookup.keys], 'Array(String)'), constant([...lookup.types], 'Array(String)'), text(''));
  return call('nullIf', found, text(''));
}

/** A source's type: the key itself, else its first significant subdomain (www.google.com -> google.com). */
function bySource(lookup: Lookup, key: Expr): Expr {
  return call('coalesce', exact(lookup, key), exact(lookup, call('cutToFirstSignificantSubdomain', call('coalesce', key, text('')))));
}

/** The inputs of PostHog's rules (ChannelTypeExprs), as the session's entry values give them. */
export interface ChannelInputs {
  readonly campaign: Expr;
  readonly medium: Expr;
  readonly source: Expr;
  readonly referringDomain: Expr;
  readonly hasGclid: Expr;
  readonly hasFbclid: Expr;
  readonly gadSource: Expr;
}

const blankAsNull = (value: Expr) => call('nullIf', call('nullIf', value, text('')), text('null'));
const matches = (value: Expr, pattern: string) => call('match', value, text(pattern));
const SHOPPING = '^(.*(([^a-df-z]|^)shop|shopping).*)$';
const VIDEO = '^(.*video.*)$';

/** A side's channel, first found: by source, a shopping campaign, by medium, by referring domain; else `otherwise`. */
function sideChannel(side: Side, campaign: Expr, medium: Expr, source: Expr, referringDomain: Expr, otherwise: Expr): Expr {
  return call('coalesce',
    bySource(side.source, source),
    call('if', matches(campaign, SHOPPING), text(side.shopping), constant(null)),
    exact(side.medium, medium),
    bySource(side.source, referringDomain),
    otherwise);
}

/** PostHog's default channel rules, first match wins (posthog.com/docs/data/channel-type). */
export function channelTypeExpr(inputs: ChannelInputs): Expr {
  const campaign = call('lower', blankAsNull(inputs.campaign));
  const medium = call('lower', blankAsNull(inputs.medium));
  const source = call('lower', blankAsNull(inputs.source));
  const gadSource = blankAsNull(inputs.gadSource);
  const { referringDomain, hasGclid, hasFbclid } = inputs;
  const isPaid = or(
    call('in', medium, call('tuple', ...['cpc', 'cpm', 'cpv', 'cpa', 'ppc', 'retargeting'].map(text))),
    call('startsWith', medium, text('paid')),
    hasGclid,
    isNotNull(gadSource),
  );
  const paid = sideChannel(PAID, campaign, medium, source, referringDomain,
    call('multiIf', call('equals', gadSource, text('1')), text('Paid Search'), matches(campaign, VIDEO), text('Paid Video'), hasFbclid, text('Paid Social'), text('Paid Unknown')));
  const isDirect = and(
    call('equals', referringDomain, text('$direct')),
    isNull(medium),
    or(isNull(source), call('in', source, call('tuple', text('(direct)'), text('direct'), text('$direct')))),
    not(hasFbclid),
  );
  const organic = sideChannel(ORGANIC, campaign, medium, source, referringDomain,
    call('multiIf',
      matches(campaign, VIDEO), text('Organic Video'),
      matches(medium, 'push$'), text('Push'),
      hasFbclid, text('Organic Social'),
      call('equals', referringDomain, text('$direct')), text('Direct'),
      isNotNull(referringDomain), text('Referral'),
      text('Unknown')));
  return call('multiIf', matches(campaign, 'cross-network'), text('Cross Network'), isPaid, paid, isDirect, text('Direct'), organic);
}

/** `$channel_type` from the session's own entry fields (`entry(name)` is that field's expression). */
export function sessionChannelType(entry: (name: string) => Expr): Expr {
  return channelTypeExpr({
    campaign: entry('$entry_utm_campaign'),
    medium: entry('$entry_utm_medium'),
    source: entry('$entry_utm_source'),
    referringDomain: entry('$entry_referring_domain'),
    hasGclid: isNotNull(entry('$entry_gclid')),
    hasFbclid: isNotNull(entry('$entry_fbclid')),
    gadSource: entry('$entry_gad_source'),
  });
}
