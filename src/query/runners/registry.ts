// Every insight kind Hoglet answers, and the runner that answers it.
import type { RunnerRegistry } from './runner.js';
import { funnelsRunner } from './funnels/runner.js';
import { trendsRunner } from './trends/runner.js';

export const RUNNERS: RunnerRegistry = Object.freeze({
  TrendsQuery: trendsRunner,
  FunnelsQuery: funnelsRunner,
});
