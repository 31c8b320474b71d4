// An event's session join reads only the sessions of the events that pass the events' own
// conditions (a date range, an event name), copied into an IN on session_id; conditions the engine
// could evaluate differently in the two places are not copied. Printed from PostHog's parser's AST
// through the translator and the team guard.
import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedHogQLParser, sharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { HogQLTranslator } from '../../../src/query/hogql/translate/translate.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';

afterAll(() => closeSharedHogQLParser());

async function sql(text: string): Promise<string> {
  const root = await sharedHogQLParser().parse('select', text, 1);
  const { query } = new HogQLTranslator({ timezone: 'UTC', values: {} }).statement(root);
  return printQuery(scopeToProject(query, 7), 'db').sql;
}

/** The IN that bounds the session side, if any: the events' conditions copied into it. */
const bound = (text: string) => /`raw`\.`session_id` IN \(SELECT `(\w+)`\.`\$session_id` FROM \(SELECT \* FROM `db`\.`events` WHERE team_id = \{p0:UInt64\}\) AS `\1` WHERE (.*?)\)\)\) AS `events__session`/.exec(text);

describe("an event's session join", () => {
  it("reads only the sessions of the events in the date range (the guard on both tables)", async () => {
    const text = await sql("select count(), avg(session.$session_duration) from events where event = '$pageview' and timestamp >= toDateTime('2024-03-01') and timestamp < toDateTime('2024-03-08')");
    const found = bound(text);
    expect(found?.[2]).toContain('equals(`events`.`event`');
    expect(found?.[2]).toContain('greaterOrEquals(toTimeZone(`events`.`timestamp`');
    expect(found?.[2]).toContain('less(toTimeZone(`events`.`timestamp`');
    expect(text).toContain('FROM (SELECT * FROM `db`.`sessions` FINAL WHERE team_id = {p0:UInt64}) AS `raw`');
  });

  it('copies no condition whose value the engine may give differently in two places', async () => {
    for (const text of [
      'select session.$session_duration from events where timestamp > now() - interval 7 day',
      'select session.$session_duration from events where rand() % 2 = 0',
      "select session.$session_duration from events where timestamp > today()",
    ]) {
      expect(bound(await sql(text)), text).toBeNull();
    }
    // The deterministic part of a mixed filter is copied; now() stays outside.
    const mixed = bound(await sql("select session.$session_duration from events where event = 'a' and timestamp > toDateTime('2024-01-01') and timestamp < now()"));
    expect(mixed?.[2]).toContain('equals(`events`.`event`');
    expect(mixed?.[2]).toContain('greater(toTimeZone(`events`.`timestamp`');
    expect(mixed?.[2]).not.toContain('now64');
    // Without a time condition to copy, the bound would cost a scan and keep most sessions.
    expect(bound(await sql("select session.$session_duration from events where event = 'a' and timestamp > now() - interval 7 day"))).toBeNull();
  });

  it('is left as it was without conditions on the events, or when the sessions table is read itself', async () => {
    expect(bound(await sql('select session.$session_duration from events'))).toBeNull();
    expect(bound(await sql("select session.$session_duration from events where session.$entry_pathname = '/a'"))).toBeNull();
    expect(bound(await sql("select avg($is_bounce) from sessions where $start_timestamp > toDateTime('2024-01-01')"))).toBeNull();
  });
});
