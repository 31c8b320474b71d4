// Shared by the diagnosis wrappers of `hoglet serve` (timed-serve.js, sampled-serve.js): loading
// the compiled modules from dist/, reading their command-line flags, and starting the server once
// they have wrapped what they measure.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist');

/** A compiled module, by its path under dist/. */
export const loadDist = (relative) => import(pathToFileURL(path.join(DIST, relative)).href);

const args = process.argv.slice(2);
/** The value after `--name` on the command line, if given. */
export const flag = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

/** Starts `hoglet serve` with --data-dir, --port, --host and --log-level (default warn) from the flags. */
export async function serveFromFlags() {
  const [{ loadConfig }, { serve }] = await Promise.all([loadDist('config.js'), loadDist('main.js')]);
  return serve(loadConfig({ dataDir: flag('--data-dir'), port: flag('--port'), host: flag('--host'), logLevel: flag('--log-level') ?? 'warn' }));
}
