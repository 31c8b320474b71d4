#!/bin/bash
# GeoIP's end-to-end cost (issue 30): the ingest benchmark with GeoIP off and on, alternated,
# three rounds of three shapes. Run from a built clone (npx tsc -p tsconfig.build.json).
# Prints per run: shape, GeoIP, server µs per event (whole process, main thread), statuses, load.
run() { # shape geoip extra-env...
  local shape=$1 geo=$2; shift 2
  env "$@" BENCH_GEOIP=$geo BENCH_ENDPOINTS=batch BENCH_FLOOR=off BENCH_PROBES=off BENCH_DURATION=15 BENCH_CONNECTIONS=10 timeout 150 node bench/ingest/run.js > /tmp/gr.md 2>/tmp/gr.err
  local row=$(grep "^| \`POST" /tmp/gr.md | tail -1)
  echo "$shape $geo $(echo "$row" | awk -F'|' '{print $13, $14, $10}') load $(cut -d' ' -f1 /proc/loadavg) located: $(grep -o '[0-9 ]* of them located' /tmp/gr.md)"
}
for round in 1 2 3; do
  run js200 off BENCH_SHAPE=posthog-js BENCH_WEB_VISITORS=200 BENCH_RATE=2000 BENCH_BODY_BUDGET_EPS=3000
  run js200 on BENCH_SHAPE=posthog-js BENCH_WEB_VISITORS=200 BENCH_RATE=2000 BENCH_BODY_BUDGET_EPS=3000
  run js2000 off BENCH_SHAPE=posthog-js BENCH_WEB_VISITORS=2000 BENCH_RATE=2000 BENCH_BODY_BUDGET_EPS=3000
  run js2000 on BENCH_SHAPE=posthog-js BENCH_WEB_VISITORS=2000 BENCH_RATE=2000 BENCH_BODY_BUDGET_EPS=3000
  run node off BENCH_RATE=4000 BENCH_BODY_BUDGET_EPS=10000
  run node on BENCH_RATE=4000 BENCH_BODY_BUDGET_EPS=10000
done
