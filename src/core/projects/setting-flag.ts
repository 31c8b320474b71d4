// A yes/no project setting read on a hot path (capture): from the SDK endpoints' project row cache
// (core/sdk/project-rows.ts, cleared at once by a settings change through the API), the settings
// text parsed once per cached row object.

/** Reads the boolean setting `name` (true only when it is exactly true; false for a missing project). */
export function projectSettingFlag(
  row: (teamId: number) => Promise<{ settings: string } | null>,
  name: string,
): (teamId: number) => Promise<boolean> {
  const parsed = new WeakMap<object, boolean>();
  return async (teamId) => {
    const found = await row(teamId);
    if (!found) return false;
    let value = parsed.get(found);
    if (value === undefined) {
      value = (JSON.parse(found.settings) as Record<string, unknown>)[name] === true;
      parsed.set(found, value);
    }
    return value;
  };
}
