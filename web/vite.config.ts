// Builds the browser app into dist/web, which the Hoglet server serves at /.
// Run from the repository root: vite build --config web/vite.config.ts
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { precompress } from './precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
// During `vite` dev, API calls go to a local Hoglet (override with HOGLET_URL).
const target = process.env.HOGLET_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  // .br and .gz beside each text file of the build, for browsers that ask for them.
  plugins: [preact(), precompress()],
  build: {
    outDir: resolve(root, '../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    sourcemap: false,
    // One JS bundle is small enough; keep Vite from inlining the sankey plugin twice.
    chunkSizeWarningLimit: 400,
    // Brotli at quality 11 (precompress) takes seconds by design: no "slow plugin" warning for it.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    proxy: {
      '/api': target,
      '^/shared/[^/]+\\.json$': target,
    },
  },
});
