// IANA zone names as PostHog (pytz.all_timezones) accepts them: canonical names and legacy
// aliases such as US/Pacific, spelled with their proper case.
const canonical = new Set(Intl.supportedValuesOf('timeZone'));
canonical.add('UTC');

const ZONE_SHAPE = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export function isValidTimezone(name: string): boolean {
  if (canonical.has(name)) return true;
  // Aliases are not listed by Intl; accept those the engine resolves, but only in proper case
  // (pytz is case-sensitive, the engine is not).
  if (!ZONE_SHAPE.test(name) || name.split('/').some((part) => !/^[A-Z]/.test(part))) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
