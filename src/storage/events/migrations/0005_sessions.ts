// The second layout of the sessions table (exact counts only, no small counts for the bounce
// rate), replaced by migration 6 before it was released: a store that ran this keeps it recorded
// and gets the new table from migration 6, which drops this one; a store that did not has nothing
// to make here.
import type { EventStoreMigration } from './index.js';

export const sessionsSecondLayout: EventStoreMigration = {
  version: 5,
  name: 'sessions_compact',
  statements: () => [],
};
