// GeoIP's cost per event, in this process (no server): what capture's GeoIP step adds to an event
// (`$ip`, the lookup, the `$geoip_*` properties), what person processing adds for a located event
// (its 30 `$geoip_*` / `$initial_geoip_*` updates), and the bigger JSON every later step encodes.
// Events are the ingest benchmark's posthog-node events from 10 000 users, each user with a public
// address of their own (one in ten IPv6), so after the first pass most addresses are cached, as a
// visitor's later events are. Also the bundled database's load time and memory.
//
//   npx tsc -p tsconfig.build.json && node bench/ingest/geoip-cost.js   (CPU time, not wall time)
//   BENCH_EVENTS=<n> (default 200 000), BENCH_ROUNDS=<n> (default 5; the median is reported)
//   BENCH_SHAPE=posthog-js: posthog-js queue flushes instead (web-events.js, 200 visitors, 10 events
//   a flush, parsed from their JSON as capture parses them), each from its visitor's address
//   BENCH_NEW_VISITORS=<n> (posthog-js only; default 5 000): also the first flush of n new visitors,
//   each from an address never seen before, per visitor: the capture step with the lookup in the
//   file, the new person's updates and the person row's JSON (what a first sight adds)
import { existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventFactory } from './events.js';
import { WebEventFactory } from './web-events.js';
import { publicAddressOf } from './events.js';
import { ROOT, envNumber } from '../lib/harness.js';

const EVENTS = envNumber('BENCH_EVENTS', 200_000, { integer: true });
const ROUNDS = envNumber('BENCH_ROUNDS', 5, { integer: true });
const WEB = process.env.BENCH_SHAPE === 'posthog-js';
const BATCH = WEB ? 10 : 100;
const NEW_VISITORS = WEB ? envNumber('BENCH_NEW_VISITORS', 5_000, { integer: true }) : 0;

async function load(relative) {
  const file = path.join(ROOT, 'dist', relative);
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing; run \`npx tsc -p tsconfig.build.json\` first`);
  return import(pathToFileURL(file).href);
}

const { GeoIpDatabase, bundledDatabase } = await load('core/geoip/database.js');
const { CaptureGeoIp } = await load('core/geoip/capture-geoip.js');
const { applyPersonUpdates } = await load('core/capture/persons/property-updates.js');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

const rss0 = rssMiB();
const database = new GeoIpDatabase(bundledDatabase());
let started = performance.now();
await database.load('8.8.8.8');
const v4 = { ms: performance.now() - started, rss: rssMiB() - rss0 };
started = performance.now();
await database.load('2a00::1');
const both = { ms: performance.now() - started, rss: rssMiB() - rss0 };

const on = new CaptureGeoIp(database, async () => false);
const off = new CaptureGeoIp(null, async () => false);
const factory = new EventFactory({ users: 10_000, seed: 42, ips: true });
const web = new WebEventFactory({ visitors: 200, seed: 42, perRequest: BATCH });
// Properties as capture's normalisation hands them on: a copy of the sent object (V8 gives the copy
// no room to grow, which is what decides how adding the place behaves).
const captured = (e, distinctId) => ({ uuid: e.uuid, event: e.event, distinctId, properties: { ...e.properties }, timestampUs: 0, historicalMigration: false });
/** CPU milliseconds of this process (all its threads): steadier than wall time on a shared machine. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Events with the address capture gives them (posthog-js: the flush's X-Forwarded-For). */
const fresh = () => {
  if (!WEB) return factory.events(EVENTS, Date.now()).map((e) => Object.assign(captured(e, e.distinct_id), { clientIp: '127.0.0.1' }));
  const events = [];
  while (events.length < EVENTS) {
    const { body, forwardedFor } = web.requestBody('phc_bench');
    for (const e of JSON.parse(gunzipSync(body))) events.push(Object.assign(captured(e, e.properties.distinct_id), { clientIp: forwardedFor }));
  }
  return events;
};

async function capturePass(geoip, events) {
  const t = cpuMs();
  for (let i = 0; i < events.length; i += BATCH) await geoip.apply(1, events.slice(i, i + BATCH), events[i].clientIp);
  return ((cpuMs() - t) * 1000) / events.length;
}

function jsonPass(events) {
  const t = cpuMs();
  let bytes = 0;
  for (const e of events) bytes += JSON.stringify(e.properties).length;
  return { us: ((cpuMs() - t) * 1000) / events.length, bytes: bytes / events.length };
}

function personPass(events) {
  const persons = new Map();
  const t = cpuMs();
  for (const e of events) {
    let person = persons.get(e.distinctId);
    if (!person) persons.set(e.distinctId, (person = {}));
    applyPersonUpdates(person, e.properties, e.located === true);
  }
  return ((cpuMs() - t) * 1000) / events.length;
}

// A first pass fills the address cache (each user's first event is a lookup in the file).
const cold = await capturePass(on, fresh());
const rows = { off: [], on: [], jsonOff: [], jsonOn: [], personOff: [], personOn: [] };
let sizes = {};
for (let round = 0; round < ROUNDS; round++) {
  const a = fresh();
  const b = fresh();
  rows.off.push(await capturePass(off, a));
  rows.on.push(await capturePass(on, b));
  const ja = jsonPass(a);
  const jb = jsonPass(b);
  rows.jsonOff.push(ja.us);
  rows.jsonOn.push(jb.us);
  sizes = { off: ja.bytes, on: jb.bytes };
  rows.personOff.push(personPass(a));
  rows.personOn.push(personPass(b));
}

// New visitors (posthog-js): each one's first flush, from an address no earlier round used.
const newVisitor = { off: [], on: [], personOff: [], personOn: [], rowOff: [], rowOn: [] };
let rowBytes = {};
let nextAddress = 1_000_000;
function firstFlushes() {
  const visitors = new WebEventFactory({ visitors: NEW_VISITORS, seed: 7 + nextAddress, perRequest: BATCH });
  return visitors.visitors.map(() => {
    const { body } = visitors.requestBody('phc_bench');
    const ip = publicAddressOf(nextAddress++);
    return JSON.parse(gunzipSync(body)).map((e) => Object.assign(captured(e, e.properties.distinct_id), { clientIp: ip }));
  });
}
async function newVisitorCapture(geoip, flushes) {
  const t = cpuMs();
  for (const flush of flushes) await geoip.apply(1, flush, flush[0].clientIp);
  return ((cpuMs() - t) * 1000) / flushes.length;
}
function newVisitorPersons(flushes) {
  const persons = flushes.map(() => ({}));
  const t = cpuMs();
  flushes.forEach((flush, i) => {
    for (const e of flush) applyPersonUpdates(persons[i], e.properties, e.located === true);
  });
  const updates = ((cpuMs() - t) * 1000) / flushes.length;
  const t2 = cpuMs();
  let bytes = 0;
  for (const person of persons) bytes += JSON.stringify(person).length;
  return { updates, row: ((cpuMs() - t2) * 1000) / flushes.length, bytes: bytes / flushes.length };
}
for (let round = 0; NEW_VISITORS > 0 && round < ROUNDS; round++) {
  const a = firstFlushes();
  const b = firstFlushes();
  newVisitor.off.push(await newVisitorCapture(off, a));
  newVisitor.on.push(await newVisitorCapture(on, b));
  const pa = newVisitorPersons(a);
  const pb = newVisitorPersons(b);
  newVisitor.personOff.push(pa.updates);
  newVisitor.personOn.push(pb.updates);
  newVisitor.rowOff.push(pa.row);
  newVisitor.rowOn.push(pb.row);
  rowBytes = { off: pa.bytes, on: pb.bytes };
}

const us = (v) => `${v.toFixed(2)} µs`;
const lines = [
  '## GeoIP cost per event (in process)',
  '',
  (WEB
    ? `- ${EVENTS.toLocaleString('en')} posthog-js-shaped events (parsed from their bodies) from 200 visitors, each flush of ${BATCH} from its visitor's address; median of ${ROUNDS} rounds; Node ${process.version}`
    : `- ${EVENTS.toLocaleString('en')} posthog-node-shaped events from 10 000 users with public addresses, in batches of ${BATCH}; median of ${ROUNDS} rounds; Node ${process.version}`),
  `- Database: IPv4 file read in ${v4.ms.toFixed(0)} ms (+${v4.rss.toFixed(0)} MiB RSS), both files ${(v4.ms + both.ms).toFixed(0)} ms (+${both.rss.toFixed(0)} MiB RSS)`,
  `- First pass (every address looked up in the file once, then cached): ${us(cold)} per event`,
  '',
  '| step | GeoIP off | GeoIP on | added |',
  '| --- | ---: | ---: | ---: |',
  `| capture's GeoIP step (\`$ip\`, lookup, \`$geoip_*\`) | ${us(median(rows.off))} | ${us(median(rows.on))} | ${us(median(rows.on) - median(rows.off))} |`,
  `| one JSON encoding of the properties (${sizes.off?.toFixed(0)} → ${sizes.on?.toFixed(0)} bytes) | ${us(median(rows.jsonOff))} | ${us(median(rows.jsonOn))} | ${us(median(rows.jsonOn) - median(rows.jsonOff))} |`,
  `| person property updates | ${us(median(rows.personOff))} | ${us(median(rows.personOn))} | ${us(median(rows.personOn) - median(rows.personOff))} |`,
];
if (NEW_VISITORS > 0) {
  const row = (label, a, b) => `| ${label} | ${us(median(a))} | ${us(median(b))} | ${us(median(b) - median(a))} |`;
  lines.push(
    '',
    `New visitors: ${NEW_VISITORS.toLocaleString('en')} a round, each one's first flush (${BATCH} events) from an address not seen before; µs per visitor`,
    '',
    '| step (per new visitor) | GeoIP off | GeoIP on | added |',
    '| --- | ---: | ---: | ---: |',
    row("capture's GeoIP step (the address looked up in the file)", newVisitor.off, newVisitor.on),
    row('the new person\'s property updates (its first flush)', newVisitor.personOff, newVisitor.personOn),
    row(`the person row's JSON (${rowBytes.off?.toFixed(0)} → ${rowBytes.on?.toFixed(0)} bytes)`, newVisitor.rowOff, newVisitor.rowOn),
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
