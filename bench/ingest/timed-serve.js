// Diagnosis only: `hoglet serve` with timers around the capture log's append (what a 200 waits
// for), the inserter's writes behind it and every event-store statement, printed to stderr when the process gets SIGTERM. Used by run.js when
// BENCH_FLUSH_TIMING=1; it wraps methods of the compiled classes in dist/, so it changes nothing
// in src/ and nothing when it is not used.
//
//   node bench/ingest/timed-serve.js --data-dir DIR --port P [--host H]
//
// Between two SIGUSR2 signals (run.js sends them around each measured run) it counts capture
// requests and main-thread busy time (event-loop utilisation), and per step (the flush, each
// query and insert by table, person processing) the calls, time, share of the window, mean
// milliseconds and rows per call; the second signal prints them to stderr.
import { loadDist as load, serveFromFlags } from './wrapped-serve.js';

const [{ EventStore }, { EventWriter }, { PersonProcessor }, { CaptureService }, { CaptureLog }] = await Promise.all([
  load('storage/events/event-store.js'),
  load('core/capture/event-writer.js'),
  load('core/capture/persons/person-processor.js'),
  load('core/capture/service.js'),
  load('core/capture/log/capture-log.js'),
]);


const steps = new Map();
function record(name, ms, rows) {
  const step = steps.get(name) ?? { calls: 0, ms: 0, rows: 0 };
  step.calls += 1;
  step.ms += ms;
  step.rows += rows;
  steps.set(name, step);
}

/** Replaces an async method with one that records its duration under `nameOf(...args)`. */
function time(prototype, method, nameOf, rowsOf = () => 0) {
  const original = prototype[method];
  prototype[method] = async function timed(...callArgs) {
    const started = performance.now();
    try {
      return await original.apply(this, callArgs);
    } finally {
      record(nameOf(...callArgs), performance.now() - started, rowsOf(...callArgs));
    }
  };
}

const tableOf = (sql) => /FROM\s+[\w.]*?(\w+)\s/i.exec(sql)?.[1] ?? sql.trim().slice(0, 24);
time(EventStore.prototype, 'query', (sql) => `query ${tableOf(sql)}`);
time(EventStore.prototype, 'insert', (table) => `insert ${table}`, (_table, rows) => rows.length);
const eventsOf = (items) => items.reduce((n, item) => n + item.events.length, 0);
time(CaptureLog.prototype, 'append', () => 'log append + fsync (the 200)', eventsOf);
time(EventWriter.prototype, 'write', () => 'insert (EventWriter.write)', eventsOf);
time(PersonProcessor.prototype, 'process', () => 'person processing', (_team, events) => events.length);

// Windows: run.js sends SIGUSR2 when a measured run starts (timers reset) and again when it ends
// (this window is printed). Node keeps SIGUSR1 for its inspector, hence USR2.
let window = null;
let requests = 0;
const capture = CaptureService.prototype.capture;
CaptureService.prototype.capture = async function countedCapture(...callArgs) {
  try {
    return await capture.apply(this, callArgs);
  } finally {
    requests += 1;
  }
};

function printWindow() {
  const busy = performance.eventLoopUtilization(window.loop);
  const seconds = (performance.now() - window.started) / 1000;
  const lines = [
    `flush timing (bench/ingest/timed-serve.js), ${seconds.toFixed(1)} s: ${requests - window.requests} capture requests; ` +
      `main thread busy ${(busy.active / 1000).toFixed(1)} s (event-loop utilisation ${(busy.utilization * 100).toFixed(0)} %)`,
  ];
  const sorted = [...steps].filter(([, step]) => step.ms >= 1).sort(([, a], [, b]) => b.ms - a.ms);
  for (const [name, step] of sorted) {
    lines.push(
      `  ${name.padEnd(30)} ${String(step.calls).padStart(6)} calls ${(step.ms / 1000).toFixed(2).padStart(6)} s ` +
        `(${((100 * step.ms) / 1000 / seconds).toFixed(0).padStart(3)} % of the window) ${(step.ms / step.calls).toFixed(1).padStart(6)} ms/call ` +
        `${Math.round(step.rows / step.calls).toString().padStart(6)} rows/call`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

process.on('SIGUSR2', () => {
  if (window) {
    printWindow();
    window = null;
  } else {
    steps.clear();
    window = { started: performance.now(), loop: performance.eventLoopUtilization(), requests };
  }
});

await serveFromFlags();
