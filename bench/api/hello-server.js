// The floor for the API benchmark: a bare Fastify 5 hello world, run as its own process so that it
// is measured exactly like Hoglet (server in a child process, load generator in bench/api/run.js).
//
//   node bench/api/hello-server.js --port <port> [--host 127.0.0.1] [--route PATH --body-file FILE]
//
// Answers GET / with {"hello":"world"}; with --route, also answers GET PATH (a Fastify route, so
// `:params` work) with the JSON in FILE, read once: the "same route returning a constant" floor. Logging is off, as it is (at warn level, on a request path
// that logs nothing) for Hoglet. Exits 0 on SIGTERM/SIGINT after closing the server.
import fs from 'node:fs';
import Fastify from 'fastify';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    route: { type: 'string' },
    'body-file': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`hello-server: --port must be an integer 0-65535 (got ${values.port})\n`);
  process.exit(2);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
if (values.route) {
  const body = JSON.parse(fs.readFileSync(values['body-file'], 'utf8'));
  app.get(values.route, async () => body);
}

await app.listen({ port, host: values.host });

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
