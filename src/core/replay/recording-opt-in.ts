// Whether a project takes recordings: its `session_recording_opt_in` setting (off by default), read
// from the SDK endpoints' project row cache, which a settings change through the API clears at
// once (project-rows.ts). PostHog's capture accepts /s/ for any valid token and its recordings
// consumer drops the messages of teams without the setting (fetchTeamTokensWithRecordings), so the
// SDK is answered 200 and does not retry; Hoglet drops them before anything is stored or counted.

/** Reads `session_recording_opt_in` from a project row's settings text, parsed once per row object. */
export function recordingOptInReader(row: (teamId: number) => Promise<{ settings: string } | null>): (teamId: number) => Promise<boolean> {
  const parsed = new WeakMap<object, boolean>();
  return async (teamId) => {
    const found = await row(teamId);
    if (!found) return false;
    let value = parsed.get(found);
    if (value === undefined) {
      value = (JSON.parse(found.settings) as { session_recording_opt_in?: unknown }).session_recording_opt_in === true;
      parsed.set(found, value);
    }
    return value;
  };
}
