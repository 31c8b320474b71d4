// Which blocks a summary row counts (a short hash of each block's name). /s/ inserts the summary
// rows of many requests in one INSERT (src/core/replay/summary-rows.ts), so the INSERT's
// deduplication token no longer names one block; a request sent again whose block is already on
// disk looks its hash up here instead, and a block counted before is not counted twice.
// groupUniqArrayArray keeps a merged session row's hashes, so the look-up holds after merges.
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

const COLUMN = 'block_names SimpleAggregateFunction(groupUniqArrayArray, Array(String))';

export const replayBlockNames: EventStoreMigration = {
  version: 7,
  name: 'replay_block_names',
  statements: (d: Ddl) => {
    const statements = [`ALTER TABLE ${d.db}.${d.storageName(TABLES.sessionReplayEvents)}${d.onCluster} ADD COLUMN IF NOT EXISTS ${COLUMN}`];
    // On a cluster the Distributed table in front reads the column from the shards' tables.
    if (d.storageName(TABLES.sessionReplayEvents) !== TABLES.sessionReplayEvents) {
      statements.push(`ALTER TABLE ${d.db}.${TABLES.sessionReplayEvents}${d.onCluster} ADD COLUMN IF NOT EXISTS ${COLUMN}`);
    }
    return statements;
  },
};
