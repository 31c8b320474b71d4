// CSV formula injection: an event named like a spreadsheet formula, captured by anyone who has the
// project's public token, must reach every CSV Hoglet writes as plain text (a leading `'`), both
// `?format=csv` of the API and the insight's results.csv, with a key or a public sharing token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { parseCsv, records } from '../helpers/csv.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';

const FORMULA = '=HYPERLINK("http://x","y")';

describe('CSV cells a spreadsheet would run as formulas', () => {
  let t: TestApp;
  let alice: Credentials;
  let insightUrl: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    alice = await t.bootstrap('alice@example.com');
    await journeys(t, alice, { a: [ev(FORMULA, '2024-01-01T10:00:00Z'), ev(FORMULA, '2024-01-02T10:00:00Z')] });
    const query = { kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event: FORMULA }], '2024-01-01', '2024-01-02') };
    const created = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/insights/`, payload: { name: '@SUM(1)', query, saved: true } });
    expect(created.statusCode, created.body).toBe(201);
    insightUrl = `/api/projects/${alice.projectId}/insights/${created.json().id}`;
    const sharing = await t.request(alice.key, { method: 'PATCH', url: `${insightUrl}/sharing/`, payload: { enabled: true } });
    token = sharing.json().access_token;
  });
  afterAll(() => t.close());

  /** Every cell of a CSV answer; none may start as a formula (numbers such as -3 are data). */
  const cellsOf = (body: string) => parseCsv(body).flat();
  const formulas = (cells: string[]) => cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell));

  it('?format=csv of an insight, with a key and with the public sharing token', async () => {
    for (const [who, url] of [
      [alice.key, `${insightUrl}/?format=csv&refresh=blocking`],
      [null, `${insightUrl}/?format=csv&sharing_access_token=${token}`],
    ] as const) {
      const res = await t.request(who, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = records(res.body);
      expect(row!['query.source.series.0.event']).toBe(`'${FORMULA}`);
      expect(row!.name).toBe("'@SUM(1)");
      expect(formulas(cellsOf(res.body))).toEqual([]);
    }
  });

  it("the insight's results.csv through the public sharing token", async () => {
    const res = await t.request(null, { method: 'GET', url: `${insightUrl}/results.csv?sharing_access_token=${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(parseCsv(res.body)).toEqual([["'@SUM(1)"], ['series', '1-Jan-2024', '2-Jan-2024'], [`'${FORMULA}`, '1', '1']]);
  });
});
