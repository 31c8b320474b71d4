// Issue 27's and issue 29's (flags) reproductions against a live `hoglet serve`: each attack runs while a prober captures
// a small /batch/ for organization A every 100 ms, and the report says what each attack answered,
// whether the server lived, and how capture fared meanwhile (every probe must be a 200).
//
//   npm run build && node bench/attacks/run.js
//
// Two organizations (A the victim, B the attacker) each get a project and a key. Every request
// is bounded in time; the server is stopped and the data directory removed on every exit path.
// Progress goes to stderr; the Markdown report to stdout. Exit 1 when any expectation fails.
import { execFileSync } from 'node:child_process';
import {
  HOGLET_BIN, HOST, ROOT, coresDescription, freePort, installCleanup, log, makeTempDir, runAndExit,
  showLeftoverOutput, sleep, startChild, stopChild, waitForReady,
} from '../lib/harness.js';

installCleanup({ overallTimeoutMs: 15 * 60_000, stopping: 'server' });

const REQUEST_TIMEOUT_MS = 120_000;
const MARK = 'zzvictim';

function bootstrap(dataDir, email, organization) {
  const out = execFileSync(process.execPath, [HOGLET_BIN, 'bootstrap', '--email', email, '--organization', organization, '--password', 'a long passphrase here', '--json', '--data-dir', dataDir], { cwd: ROOT, timeout: 60_000 });
  const ids = JSON.parse(String(out).trim());
  return { key: ids.personal_api_key, project: ids.project_id, token: ids.project_api_token };
}

async function request(base, method, path, { key, body, headers = {}, raw } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: raw ? body : JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, text: String(error), ms: performance.now() - started };
  }
}

const hogql = (base, who, query, extra = {}) => request(base, 'POST', `/api/projects/${who.project}/query/`, { key: who.key, body: { query: { kind: 'HogQLQuery', query }, refresh: 'force_blocking', ...extra } });

/** Captures for A every 100 ms until stopped; what it saw. */
function startProber(base, victim) {
  const seen = { sent: 0, ok: 0, worstMs: 0, failures: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const batch = Array.from({ length: 10 }, (_, i) => ({ event: MARK, distinct_id: `${MARK}-${i}`, properties: { n: seen.sent } }));
      const res = await request(base, 'POST', '/batch/', { body: { api_key: victim.token, batch } });
      seen.sent += 1;
      if (res.status === 200) seen.ok += 1;
      else seen.failures.push(res.status);
      seen.worstMs = Math.max(seen.worstMs, res.ms);
      await sleep(100);
    }
  })();
  return { seen, stop: async () => { running = false; await loop; } };
}

function multipartCsv(name, csv) {
  const boundary = '----hoglet-attack';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="is_static"\r\n\r\ntrue\r\n--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  return { raw: true, body: Buffer.concat([head, csv, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Each attack: what it sends, and whether what came back is what Hoglet promises. */
const ATTACKS = [
  ['alias named after the table reads other organizations (HogQL)', async (base, { a, b }) => {
    const res = await hogql(base, b, `select tuple(*), JSONExtract('{"team_id":${b.project}}', 'Tuple(team_id UInt64)') as events from events`);
    const alt = await hogql(base, b, `select event from events where toString((JSONExtract('{"team_id":${b.project}}', 'Tuple(team_id UInt64)')) as events) != ''`);
    return { answer: `${res.status}, ${alt.status}`, held: !res.text.includes(MARK) && !alt.text.includes(MARK) && res.status < 500 && alt.status < 500 };
  }],
  ['alias named after the table, in a legacy trend breakdown', async (base, { b }) => {
    const res = await request(base, 'POST', `/api/projects/${b.project}/insights/trend/`, { key: b.key, body: { events: [{ id: MARK }], date_from: '-1d', breakdown_type: 'hogql', breakdown: `concat(event, toString((JSONExtract('{"team_id":${b.project}}', 'Tuple(team_id UInt64)')) as e))` } });
    return { answer: String(res.status), held: !res.text.includes(MARK) && res.status < 500 };
  }],
  ['11 cohorts, each naming the previous one 4 times', async (base, { b }) => {
    let previous = null;
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      const values = previous === null
        ? [{ key: 'email', type: 'person', value: 'x', operator: 'icontains' }]
        : Array.from({ length: 4 }, () => ({ key: 'id', type: 'cohort', value: previous }));
      const res = await request(base, 'POST', `/api/projects/${b.project}/cohorts/`, { key: b.key, body: { name: `chain ${i}`, filters: { properties: { type: 'OR', values: [{ type: 'OR', values }] } } } });
      statuses.push(res.status);
      if (res.status !== 201) break;
      previous = JSON.parse(res.text).id;
    }
    const list = await request(base, 'GET', `/api/projects/${b.project}/cohorts/`, { key: b.key });
    const query = previous === null ? { status: 0, ms: 0 } : await hogql(base, b, `select count() from persons where id in cohort ${previous}`);
    return { answer: `creates ${[...new Set(statuses)].join('/')}, list ${list.status} in ${list.ms.toFixed(0)} ms, query ${query.status} in ${query.ms.toFixed(0)} ms`, held: list.status === 200 && [200, 400].includes(query.status) };
  }],
  ['22 chained CTEs, each joining the previous one to itself', async (base, { b }) => {
    const links = ['c0 as (select event from events)'];
    for (let i = 1; i < 22; i++) links.push(`c${i} as (select a.event as event from c${i - 1} a join c${i - 1} b on a.event = b.event)`);
    const res = await hogql(base, b, `with ${links.join(', ')} select count() from c21`);
    return { answer: `${res.status} in ${res.ms.toFixed(0)} ms`, held: res.status === 400 && res.ms < 5_000 };
  }],
  ['a self-referencing CTE, a union of different widths, 2^53 + 1, IN COHORT -1', async (base, { b }) => {
    const answers = [];
    for (const q of ['with events as (select * from events) select count() from events', 'select event, event from events union all select 1', 'select 9007199254740993', 'select count() from events where person_id in cohort -1']) {
      answers.push((await hogql(base, b, q)).status);
    }
    return { answer: answers.join(', '), held: answers.every((s) => s === 200 || s === 400) };
  }],
  ['four parallel 20 MB cohort CSV uploads', async (base, { b }) => {
    // Just under the 20 MB a cohort file may hold.
    const rows = [];
    let bytes = 12;
    for (let i = 0; bytes < 19.5 * 1024 * 1024; i++) {
      rows.push(`visitor-${i}`);
      bytes += rows.at(-1).length + 1;
    }
    const csv = Buffer.from(`distinct_id\n${rows.join('\n')}\n`);
    const results = await Promise.all([1, 2, 3, 4].map((n) => request(base, 'POST', `/api/projects/${b.project}/cohorts/`, { key: b.key, ...multipartCsv(`upload ${n}`, csv) })));
    return { answer: results.map((r) => `${r.status}`).join(', ') + ` (${(csv.length / 2 ** 20).toFixed(1)} MB each)`, held: results.every((r) => r.status < 500 && r.status !== 0) };
  }],
  ["B's 30 s query while A asks select 12345 + 1", async (base, { a, b }) => {
    const slow = hogql(base, b, 'select count() from (select arrayJoin(range(100000)) as x) l cross join (select arrayJoin(range(100000)) as y) r where x * y % 1000003 = 7', { client_query_id: 'attack-slow' });
    await sleep(1_000);
    const mine = await hogql(base, a, 'select 12345 + 1');
    await request(base, 'POST', `/api/projects/${b.project}/insights/cancel/`, { key: b.key, body: { client_query_id: 'attack-slow' } });
    await slow;
    return { answer: `A: ${mine.status} in ${mine.ms.toFixed(0)} ms`, held: mine.status === 200 && mine.ms < 2_000 };
  }],
  ["B's 20 slow-to-parse queries while A asks select 12345 + 1", async (base, { a, b }) => {
    const deep = (n) => `${'('.repeat(60)}${n}${')'.repeat(60)}`.replaceAll('(', '(1 + ');
    const slow = Array.from({ length: 20 }, (_, n) => hogql(base, b, `select ${deep(n)}, f'{${deep(n)}}'`));
    await sleep(200);
    const mine = await hogql(base, a, 'select 12345 + 1');
    const theirs = await Promise.all(slow);
    return { answer: `A: ${mine.status} in ${mine.ms.toFixed(0)} ms; B: ${[...new Set(theirs.map((r) => r.status))].join('/')}`, held: mine.status === 200 && mine.ms < 3_000 };
  }],
  // Issue 29's flag attacks: B's definitions and requests as large as the API allows, while A captures.
  ['B: 2,000 flags of 1,000-value `exact` lists and regexes, then /flags/ with 10 KB person_properties', async (base, { b }) => {
    const values = (f) => Array.from({ length: 1000 }, (_, i) => `plan-${f}-${i}-${'x'.repeat(12)}`);
    const statuses = {};
    const ids = [];
    const started = performance.now();
    for (let f = 0; f < 2000; f += 20) {
      const made = await Promise.all(Array.from({ length: 20 }, (_, j) => request(base, 'POST', `/api/projects/${b.project}/feature_flags/`, { key: b.key, body: {
        key: `heavy-${f + j}`,
        filters: { groups: [{ properties: [
          { key: 'plan', type: 'person', operator: 'exact', value: values(f + j) },
          { key: 'bio', type: 'person', operator: 'regex', value: '^(a|aa)+(b|c)*[0-9]{1,40}$' },
          { key: 'bio', type: 'person', operator: 'not_icontains', value: 'y'.repeat(2000) },
        ], rollout_percentage: 50 }] },
      } })));
      for (const r of made) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      ids.push(...made.filter((r) => r.status === 201).map((r) => JSON.parse(r.text).id));
      if (made.some((r) => r.status !== 201)) break;
    }
    const createMs = performance.now() - started;
    const personProperties = { plan: 'plan-1999-999-xxxxxxxxxxxx', bio: 'a'.repeat(6000), ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, 'v'.repeat(30)])) };
    const times = [];
    const answers = {};
    for (let i = 0; i < 60; i++) {
      const res = await request(base, 'POST', '/flags/?v=2', { body: { token: b.token, distinct_id: `heavy-${i}`, person_properties: personProperties } });
      answers[res.status] = (answers[res.status] ?? 0) + 1;
      times.push(res.ms);
    }
    const parallel = await Promise.all(Array.from({ length: 40 }, (_, i) => request(base, 'POST', '/flags/?v=2', { body: { token: b.token, distinct_id: `p-${i}`, person_properties: personProperties } })));
    for (const r of parallel) answers[r.status] = (answers[r.status] ?? 0) + 1;
    times.sort((x, y) => x - y);
    const median = times[Math.floor(times.length / 2)];
    // Deleted again, so the next attack starts from an empty project.
    for (const id of ids) await request(base, 'PATCH', `/api/projects/${b.project}/feature_flags/${id}/`, { key: b.key, body: { deleted: true } });
    return {
      answer: `creates ${Object.entries(statuses).map(([s, n]) => `${n}×${s}`).join(', ')} in ${(createMs / 1000).toFixed(0)} s; /flags/ ${Object.entries(answers).map(([s, n]) => `${n}×${s}`).join(', ')}, one at a time median ${median.toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms`,
      held: Object.keys(answers).every((s) => ['200', '400'].includes(s)) && median < 50,
    };
  }],
  ["B's /flags/ with a 10 MB body, as JSON and as a base64 form", async (base, { b }) => {
    const big = { token: b.token, distinct_id: 'big', person_properties: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v'.repeat(90)])) };
    const res = await request(base, 'POST', '/flags/?v=2', { body: big });
    const form = await request(base, 'POST', '/flags/?v=2', { raw: true, body: `data=${Buffer.from(JSON.stringify(big)).toString('base64')}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    return { answer: `${res.status} in ${res.ms.toFixed(0)} ms (${(JSON.stringify(big).length / 2 ** 20).toFixed(1)} MB); as a base64 form ${form.status} in ${form.ms.toFixed(0)} ms`, held: [200, 400, 413].includes(res.status) && [200, 400, 413].includes(form.status) };
  }],
  ["B's flag dependency chain as deep as the API allows, and 20 nested cohorts", async (base, { b }) => {
    let previous = null;
    let depth = 0;
    let refused = '';
    // Up to the project's flag budget (refused there), then one flag on the nested cohorts.
    for (; depth < 2100; depth++) {
      const properties = previous === null ? [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }] : [{ key: String(previous), type: 'flag', operator: 'flag_evaluates_to', value: true }];
      const res = await request(base, 'POST', `/api/projects/${b.project}/feature_flags/`, { key: b.key, body: { key: `chain-${depth}`, filters: { groups: [{ properties, rollout_percentage: 100 }] } } });
      if (res.status !== 201) { refused = `, refused at ${depth} with ${res.status} (${JSON.parse(res.text).detail})`; break; }
      previous = JSON.parse(res.text).id;
    }
    let cohort = null;
    for (let i = 0; i < 20; i++) {
      const values = cohort === null ? [{ key: 'plan', type: 'person', operator: 'exact', value: 'pro' }] : [{ key: 'id', type: 'cohort', value: cohort }, { key: 'id', type: 'cohort', value: cohort }];
      const res = await request(base, 'POST', `/api/projects/${b.project}/cohorts/`, { key: b.key, body: { name: `nest ${i}`, filters: { properties: { type: 'OR', values: [{ type: 'AND', values }] } } } });
      if (res.status !== 201) break;
      cohort = JSON.parse(res.text).id;
    }
    // Room for the cohort flag: the chain's last link goes.
    if (previous !== null) await request(base, 'PATCH', `/api/projects/${b.project}/feature_flags/${previous}/`, { key: b.key, body: { deleted: true } });
    const onCohort = await request(base, 'POST', `/api/projects/${b.project}/feature_flags/`, { key: b.key, body: { key: 'nested-cohort', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort }], rollout_percentage: 100 }] } } });
    const cohortAnswer = onCohort.status === 201 ? '201' : `${onCohort.status} (${JSON.parse(onCohort.text).detail})`;
    const times = [];
    let last = null;
    for (let i = 0; i < 20; i++) {
      last = await request(base, 'POST', '/flags/?v=2', { body: { token: b.token, distinct_id: `deep-${i}`, person_properties: { plan: 'pro' } } });
      times.push(last.ms);
    }
    times.sort((x, y) => x - y);
    const flags = last.status === 200 ? JSON.parse(last.text).flags : {};
    const deepest = flags[`chain-${depth - 2}`]?.enabled;
    return {
      answer: `chain of ${depth}${refused}; cohort flag ${cohortAnswer}; /flags/ ${last.status}, median ${times[10].toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms, deepest on: ${deepest}`,
      held: last.status === 200 && times[10] < 50,
    };
  }],
  ['300 parallel wrong passwords for one email', async (base, { a }) => {
    const results = await Promise.all(Array.from({ length: 300 }, () => request(base, 'POST', '/api/login/', { body: { email: 'victim-a@example.com', password: 'wrong guess' } })));
    const counts = {};
    for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return { answer: Object.entries(counts).map(([s, n]) => `${n}×${s}`).join(', '), held: (counts[400] ?? 0) <= 10 && results.every((r) => r.status < 500) };
  }],
];

async function main() {
  const dataDir = makeTempDir('hoglet-attacks-');
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const rows = [];
  const failures = [];
  let server;
  await runAndExit([
    async () => {
      const a = bootstrap(dataDir, 'victim-a@example.com', 'Org A');
      const b = bootstrap(dataDir, 'attacker-b@example.com', 'Org B');
      server = startChild('hoglet', [HOGLET_BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--log-level', 'warn']);
      await waitForReady(server, `${base}/_health`, 60_000);
      // A's rows carry the marker: B must never see it.
      await request(base, 'POST', '/batch/', { body: { api_key: a.token, batch: [{ event: MARK, distinct_id: `${MARK}-0`, properties: { $set: { email: `${MARK}@a` } } }] } });
      // BENCH_ATTACKS=<text> runs only the attacks whose name contains it (e.g. /flags/).
      const only = process.env['BENCH_ATTACKS'];
      for (const [name, attack] of ATTACKS.filter(([n]) => !only || n.includes(only))) {
        log(name);
        const prober = startProber(base, a);
        const outcome = await attack(base, { a, b });
        await prober.stop();
        const alive = (await request(base, 'GET', '/_health')).status === 200;
        const captureHeld = prober.seen.ok === prober.seen.sent;
        rows.push(`| ${name} | ${outcome.answer} | ${outcome.held ? 'yes' : '**no**'} | ${alive ? 'yes' : '**no**'} | ${prober.seen.ok}/${prober.seen.sent}, worst ${prober.seen.worstMs.toFixed(0)} ms |`);
        if (!outcome.held || !alive || !captureHeld) failures.push(`${name}: held ${outcome.held}, alive ${alive}, capture ${prober.seen.ok}/${prober.seen.sent} (${prober.seen.failures.join(',')})`);
        if (!alive) break;
      }
      const stopped = await stopChild(server, 20_000);
      if (stopped) failures.push(stopped);
      if (failures.length) showLeftoverOutput(server);
    },
  ], {
    rows,
    failures,
    report: () => process.stdout.write(`${[
      `Issue 27's attacks against a live server (${coresDescription()}); capture probed every 100 ms throughout.`,
      '',
      '| attack | answered | held | server alive after | capture 200s during, worst latency |',
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n')}\n`),
  });
}

await main();
