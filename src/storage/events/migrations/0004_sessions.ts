// The first layout of the sessions table (one argMin column per entry property), replaced by
// migration 5 before it was released: a store that ran this keeps it recorded and gets the new
// table from migration 5, which drops this one; a store that did not has nothing to make here.
import type { EventStoreMigration } from './index.js';

export const sessionsFirstLayout: EventStoreMigration = {
  version: 4,
  name: 'sessions',
  statements: () => [],
};
