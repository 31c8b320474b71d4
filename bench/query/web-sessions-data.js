// A web-shaped data set for the sessions table's measurements: BENCH_EVENTS events (default
// 1 000 000) in sessions of 12 events (page views, autocaptures, a last page leave, 5-65 s
// apart) over the 30 days before now, 20 000 distinct ids, posthog-js-like properties. Written
// straight into the events table of a fresh store (its views fill event_uuids and sessions).
//   node bench/query/web-sessions-data.js <data dir>
import { loadConfig } from '../../dist/config.js';
import { openEventStore } from '../../dist/storage/events/connect.js';

const dir = process.argv[2];
const events = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const store = await openEventStore(loadConfig({ dataDir: dir }, {}).events);
const db = store.layout.database;
const started = performance.now();
const CHUNK = 250_000;
for (let from = 0; from < events; from += CHUNK) {
  await store.command(`INSERT INTO ${db}.events (uuid, team_id, event, distinct_id, person_id, properties, timestamp, created_at, \`$session_id\`, elements_chain)
    SELECT generateUUIDv4(number), 1, ev, did, reinterpretAsUUID(MD5(did)), props, ts, ts, sid, ''
    FROM (
      SELECT number, intDiv(number, 12) AS s, number % 12 AS k,
        toString(reinterpretAsUUID(MD5(concat('s', toString(s))))) AS sid,
        concat('u', toString(cityHash64('d', s) % 20000)) AS did,
        if(k = 11, '$pageleave', if(cityHash64('e', number) % 4 = 0, '$autocapture', '$pageview')) AS ev,
        now64(6, 'UTC') - toIntervalSecond(cityHash64('t', s) % (30 * 86400)) + toIntervalSecond(k * (5 + cityHash64('g', s) % 60)) AS ts,
        concat('https://example.com/p', toString(cityHash64('u', number) % 50)) AS url,
        concat('{"$session_id":"', sid, '","$window_id":"', sid, '","$current_url":"', url, '","$pathname":"/p',
          '","$host":"example.com","$browser":"Chrome","$browser_version":120,"$os":"Mac OS X","$device_type":"Desktop","$lib":"web","$lib_version":"1.200.0",',
          '"$referrer":"$direct","$referring_domain":"', if(s % 3 = 0, 'www.google.com', '$direct'), '",',
          if(k = 0 AND s % 5 = 0, '"utm_source":"news","utm_medium":"email",', ''),
          '"$screen_height":1080,"$screen_width":1920,"$viewport_height":900,"$viewport_width":1600,"$insert_id":"', toString(generateUUIDv4(number)), '","distinct_id":"', did, '"}') AS props
      FROM numbers(${from}, ${Math.min(CHUNK, events - from)})
    )`, {}, { timeoutSeconds: 3600 });
}
console.log(JSON.stringify({ events, seconds: +((performance.now() - started) / 1000).toFixed(1) }));
await store.close();
