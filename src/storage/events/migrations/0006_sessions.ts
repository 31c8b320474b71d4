// The third layout of the sessions table (every entry value in one tuple state), replaced by
// migration 7 before it was released: reading one value deserialised all 26 (10x slower than a
// column of its own). A store that ran this keeps it recorded and gets the new table from
// migration 7, which drops this one; a store that did not has nothing to make here.
import type { EventStoreMigration } from './index.js';

export const sessionsThirdLayout: EventStoreMigration = {
  version: 6,
  name: 'sessions_small_counts',
  statements: () => [],
};
