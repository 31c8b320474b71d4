#!/usr/bin/env node
// The `hoglet` command. The TypeScript sources are compiled to dist/ by `npm ci` (prepare) or `npm run build`.
import { existsSync } from 'node:fs';
const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('hoglet: dist/ is missing; run `npm run build` in the checkout first.\n');
  process.exit(1);
}
await import(entry.href);
