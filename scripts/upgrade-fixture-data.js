#!/usr/bin/env node
// Feeds a running (older) Hoglet the fixed data of an upgrade fixture and prints, as JSON, what it
// answered: scripts/build-upgrade-fixture.sh stores that beside the data directory, and
// test/storage/upgrades.test.ts asks the current code the same questions.
//
//   node scripts/upgrade-fixture-data.js <base-url> <bootstrap-credentials.json> <commit>
//
// Only HTTP, only what every shape since the first trend answered: a route an older commit did
// not have (HogQL, cohorts, saved insights) is recorded as null and left out of the comparison.
import fs from 'node:fs';

const [base, credentialsFile, commit] = process.argv.slice(2);
const credentials = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
const key = credentials.personal_api_key;
const levels = (process.env.MIGRATION_LEVELS ?? '').split(' ');

async function api(method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The part of an answer an upgrade must keep (test/storage/upgrades.test.ts keeps the same). */
function normalizedAnswer(query, body) {
  if (query.kind === 'HogQLQuery') return body.results;
  return body.results.map((series) => ({ label: series.label, days: series.days, data: series.data, count: series.count }));
}

/** A UUIDv7 for a time (sessions take their start from it), the rest fixed by `n`. */
function uuidAt(iso, n) {
  const ms = Date.parse(iso).toString(16).padStart(12, '0');
  const tail = n.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-${tail}`;
}

let n = 0;
function event(distinctId, name, timestamp, session, properties = {}) {
  n += 1;
  return {
    event: name,
    distinct_id: distinctId,
    uuid: uuidAt(timestamp, n),
    timestamp,
    // One id per session start (every session here starts at a different instant).
    properties: { $session_id: uuidAt(session, 0x5e55), $current_url: 'https://example.com/', ...properties },
  };
}

// Project A: an anonymous visitor identified as alice (the merge), bob with a person property
// (the cohort), carol; project B: dave alone.
const alice = '2026-11-02T10:00:00Z';
const eventsA = [
  event('anon-1', '$pageview', '2026-11-02T10:00:00Z', alice),
  event('anon-1', '$pageview', '2026-11-02T10:05:00Z', alice),
  event('alice', '$identify', '2026-11-02T10:06:00Z', alice, { $anon_distinct_id: 'anon-1', $set: { email: 'alice@example.com' } }),
  event('alice', '$pageview', '2026-11-02T10:07:00Z', alice),
  event('alice', '$pageview', '2026-11-03T09:00:00Z', '2026-11-03T09:00:00Z'),
  event('bob', '$pageview', '2026-11-02T12:00:00Z', '2026-11-02T12:00:00Z'),
  event('bob', 'signed_up', '2026-11-03T12:00:00Z', '2026-11-03T12:00:00Z', { $set: { plan: 'pro' } }),
  event('bob', '$pageview', '2026-11-03T12:01:00Z', '2026-11-03T12:00:00Z'),
  event('bob', '$pageview', '2026-11-04T08:00:00Z', '2026-11-04T08:00:00Z'),
  event('carol', '$pageview', '2026-11-04T15:00:00Z', '2026-11-04T15:00:00Z', { $set: { plan: 'free' } }),
];
const eventsB = [
  event('dave', '$pageview', '2026-11-02T08:00:00Z', '2026-11-02T08:00:00Z'),
  event('dave', '$pageview', '2026-11-02T08:30:00Z', '2026-11-02T08:00:00Z'),
  event('dave', '$pageview', '2026-11-05T08:00:00Z', '2026-11-05T08:00:00Z'),
];

const dateRange = { date_from: '2026-11-01', date_to: '2026-11-07' };
const trend = (math, properties) => ({
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview', math }],
  interval: 'day',
  dateRange,
  ...(properties ? { properties } : {}),
});
const hogql = (query) => ({ kind: 'HogQLQuery', query });

async function capture(token, batch) {
  const response = await fetch(`${base}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: token, batch }),
  });
  if (response.status !== 200) throw new Error(`/batch/ answered ${response.status}: ${await response.text()}`);
}

/** Waits until a project's trend counts every captured $pageview (capture's inserts are batched). */
async function untilStored(projectId, pageviews) {
  for (let i = 0; i < 300; i++) {
    const { status, body } = await api('POST', `/api/projects/${projectId}/query/`, { query: trend('total'), refresh: 'force_blocking' });
    if (status === 200 && body.results[0]?.count === pageviews) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`project ${projectId}: the events never all arrived`);
}

const projectA = credentials.project_id;
const created = await api('POST', '/api/projects/', { name: 'Second project' });
if (created.status !== 201) throw new Error(`creating the second project answered ${created.status}`);
const projectB = created.body.id;

await capture(credentials.project_api_token, eventsA);
await capture(created.body.api_token, eventsB);
await untilStored(projectA, eventsA.filter((e) => e.event === '$pageview').length);
await untilStored(projectB, eventsB.length);

const cohortAnswer = await api('POST', `/api/projects/${projectA}/cohorts/`, {
  name: 'Pro plan',
  groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person', operator: 'exact' }] }],
});
const cohort = cohortAnswer.status === 201 ? { id: cohortAnswer.body.id, name: cohortAnswer.body.name } : null;

const insightAnswer = await api('POST', `/api/projects/${projectA}/insights/`, {
  name: 'Pageviews a day',
  query: { kind: 'InsightVizNode', source: trend('total') },
});
const insight = insightAnswer.status === 201 ? { id: insightAnswer.body.id, short_id: insightAnswer.body.short_id, name: insightAnswer.body.name } : null;

const questions = [
  { name: 'pageviews a day', project: projectA, query: trend('total') },
  { name: 'unique users a day (the merge counts anon-1 and alice once)', project: projectA, query: trend('dau') },
  { name: 'second project pageviews a day', project: projectB, query: trend('total') },
  { name: 'HogQL: events per name', project: projectA, query: hogql('select event, count() from events group by event order by event') },
  { name: 'HogQL: count in the second project', project: projectB, query: hogql('select count() from events') },
  { name: 'HogQL: persons', project: projectA, query: hogql('select count() from persons') },
  { name: 'HogQL: distinct ids per person', project: projectA, query: hogql('select count(distinct person_id), count() from events') },
  { name: 'HogQL: sessions and their pageviews', project: projectA, query: hogql('select count(), sum($pageview_count) from sessions') },
];
if (cohort) {
  questions.push({ name: 'pageviews of the cohort', project: projectA, query: trend('total', [{ key: 'id', value: cohort.id, type: 'cohort' }]) });
}

const answers = [];
for (const question of questions) {
  const { status, body } = await api('POST', `/api/projects/${question.project}/query/`, { query: question.query, refresh: 'force_blocking' });
  // A question this commit could not answer (no HogQL yet, say) is kept out of the fixture.
  if (status !== 200) continue;
  answers.push({ ...question, answer: normalizedAnswer(question.query, body) });
}

const persons = await api('GET', `/api/projects/${projectA}/persons/`);
process.stdout.write(
  `${JSON.stringify(
    {
      commit,
      made_by: 'scripts/build-upgrade-fixture.sh',
      migration_levels: { metadata: Number(levels[0]), events: Number(levels[1]) },
      personal_api_key: key,
      projects: { a: projectA, b: projectB },
      events: { a: eventsA.length, b: eventsB.length },
      persons: persons.status === 200 ? persons.body.results.map((p) => [...p.distinct_ids].sort()).sort() : null,
      cohort,
      insight,
      answers,
    },
    null,
    2,
  )}\n`,
);
