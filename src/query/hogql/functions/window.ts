// Window functions a HogQL query may call (always with OVER (...)). PostHog keeps these in its
// regular-function table; we separate them so the printer can insist on a window. PostgreSQL-style
// lag/lead are printed as ClickHouse's lagInFrame/leadInFrame, as PostHog does.

import { defineTable } from './types.js';

export const WINDOW_FUNCTIONS = defineTable({
  row_number: [0, 0],
  rank: [0, 0],
  dense_rank: [0, 0],
  first_value: [1, 1],
  last_value: [1, 1],
  nth_value: [2, 2],
  lagInFrame: [1, 3],
  leadInFrame: [1, 3],
  lag: [1, 3, { ch: 'lagInFrame' }],
  lead: [1, 3, { ch: 'leadInFrame' }],
});
