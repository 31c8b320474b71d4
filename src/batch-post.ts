// One /batch/ body sent to a running server until it is stored: a 503 (or no answer) means "not
// stored, retry", and the events' uuids make a retry safe. A server ingesting faster than it can
// insert refuses for a second or two at a time, and for longer on a machine busy with other work:
// the sender waits out 503s for `patienceMs` (a loaded two-core machine needed more than 20 s).
export interface BatchRefusal {
  readonly status: number;
  readonly text: string;
}

/** null once stored; the last refusal when the server said no, or kept saying 503 for `patienceMs`. */
export async function postBatch(url: string, body: string, patienceMs: number): Promise<BatchRefusal | null> {
  const started = Date.now();
  // No answer at all (the server gone) is waited out for less: a restart takes seconds.
  const patienceFor = (status: number) => (status === 0 ? Math.min(patienceMs, 30_000) : patienceMs);
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).catch(
      (error: unknown) => ({ ok: false, status: 0, text: async () => String(error) }),
    );
    if (response.ok) return null;
    if ((response.status === 503 || response.status === 0) && Date.now() - started < patienceFor(response.status)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * attempt, 3_000)));
      continue;
    }
    return { status: response.status, text: await response.text() };
  }
}
