// Embedded chDB: a statement's values are set on its connection's session and stay there, so a
// statement reading a placeholder it gives no value must be refused, never answered with the value
// a previous statement (another project's, perhaps) left behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp('sqlite');
});
afterAll(() => t.close());

it('a placeholder without a value of its own is refused, not read from the session', async () => {
  const events = t.services.events;
  // Every query-lane connection gets the value first, whichever runs the next statement.
  for (let i = 0; i < 4; i++) {
    expect(await events.query<{ v: string }>('SELECT {left_behind:String} AS v', { left_behind: 'another project' })).toEqual([{ v: 'another project' }]);
  }
  await expect(events.query('SELECT {left_behind:String} AS v', {})).rejects.toThrow(/left_behind/);
  expect(await events.query<{ v: string }>('SELECT {left_behind:String} AS v', { left_behind: 'mine' })).toEqual([{ v: 'mine' }]);
});
