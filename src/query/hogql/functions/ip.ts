// ClickHouse's IP-address functions, which PostHog's HogQL allows (its test_ip_functions.py calls
// each once): parsing and printing IPv4/IPv6 addresses, CIDR ranges. isIPAddressInRange is PostHog's
// safe form: an address that does not parse matches nothing instead of failing the whole query
// (a real $ip value may be anything), and a native IPv4/IPv6 value is read as its text first.
import { array, call, constant, field, lambda } from '../../ast/build.js';
import type { Call, Expr } from '../../ast/nodes.js';
import { defineTable, type HogQLFunction } from './types.js';

const IP_SPECS = {
  IPv4NumToString: [1, 1], IPv4StringToNum: [1, 1], IPv4StringToNumOrDefault: [1, 1], IPv4StringToNumOrNull: [1, 1],
  IPv6NumToString: [1, 1], IPv6StringToNum: [1, 1], IPv6StringToNumOrDefault: [1, 1], IPv6StringToNumOrNull: [1, 1],
  IPv4ToIPv6: [1, 1], IPv4CIDRToRange: [2, 2], IPv6CIDRToRange: [2, 2], cutIPv6: [3, 3],
  toIPv4: [1, 1], toIPv4OrDefault: [1, 1], toIPv4OrNull: [1, 1], toIPv4OrZero: [1, 1],
  toIPv6: [1, 1], toIPv6OrDefault: [1, 1], toIPv6OrNull: [1, 1], toIPv6OrZero: [1, 1],
  isIPv4String: [1, 1], isIPv6String: [1, 1],
} as const;

/**
 * isIPAddressInRange(address, cidr): false for an address that is not one. The engine would refuse
 * the statement on such a value, even a constant (it folds constants before it picks a branch), so
 * the address it is given is always a valid one: the value itself, or 0.0.0.0 with the answer false.
 */
function safeInRange(args: readonly Expr[]): Call {
  const text = field('__address');
  const valid = call('or', call('isIPv4String', text), call('isIPv6String', text));
  const body = call('and', valid, call('isIPAddressInRange', call('if', valid, text, constant('0.0.0.0')), args[1]!));
  // The address written once, as text (a native IPv4/IPv6 argument reads as its address).
  return call('arrayElement', call('arrayMap', lambda(['__address'], body), array(call('ifNull', call('toString', args[0]!), constant('')))), constant(1, 'UInt8'));
}

export const IP_FUNCTIONS: ReadonlyMap<string, HogQLFunction> = new Map([
  ...defineTable(IP_SPECS),
  ['isIPAddressInRange', Object.freeze({
    clickhouse: 'isIPAddressInRange', minArgs: 2, maxArgs: 2, expand: safeInRange,
    shape: "isIPAddressInRange(address, cidr) when address is an IPv4 or IPv6 address (as text), else false",
  })],
]);
