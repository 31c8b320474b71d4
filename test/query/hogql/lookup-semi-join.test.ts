// A person (or group) join that only filters becomes an IN lookup; anything that could give another
// answer keeps the join. Printed from PostHog's parser's AST through the translator and team guard.
import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedHogQLParser, sharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { HogQLTranslator } from '../../../src/query/hogql/translate/translate.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';

afterAll(() => closeSharedHogQLParser());

async function sql(text: string): Promise<string> {
  const root = await sharedHogQLParser().parse('select', text, 1);
  const { query } = new HogQLTranslator({ timezone: 'UTC', values: {} }).statement(root);
  return printQuery(scopeToProject(query, 1), 'db').sql;
}

const joinsPersons = (text: string) => text.includes('LEFT JOIN (SELECT `id` AS `person_key`');
const looksUpPersons = (text: string) => /IN \(SELECT `events__person`\.`person_key` FROM \(SELECT `id` AS `person_key`/.test(text);

describe('person and group joins that only filter', () => {
  it('become IN lookups, scoped to the project like every table', async () => {
    const text = await sql("select count() from events where event = 'x' and person.properties.browser = 'Chrome' and person.properties.plan like 'pro%'");
    expect(joinsPersons(text)).toBe(false);
    expect(looksUpPersons(text)).toBe(true);
    expect(text).toMatch(/FROM \(SELECT \* FROM `db`\.`persons` WHERE team_id = \{p\d+:UInt64\}\) AS `p`/);
    const groups = await sql("select count() from events where group_0.properties.industry = 'tech'");
    expect(groups).toContain('`events`.`$group_0` IN (SELECT `events__group_0`.`group_key` FROM');
    // Either of two texts, each compared the cheap way, still needs a person.
    const either = await sql("select count() from events where person.properties.browser = 'Chrome' or person.properties.browser = '12'");
    expect(looksUpPersons(either)).toBe(true);
  });

  it('keep the join when an event without a person could pass, or when anything else reads it', async () => {
    for (const text of [
      "select count() from events where person.properties.browser != 'Chrome'",
      'select count() from events where person.properties.browser is null',
      "select count() from events where coalesce(person.properties.browser, 'none') = 'none'",
      "select person.properties.browser, count() from events where person.properties.browser = 'Chrome' group by 1",
      "select count() from events where person.properties.browser = 'Chrome' or event = 'x'",
      "select count() from events where person.properties.browser = properties.$browser",
      "select count() from events where person.created_at > now() - interval 1 day",
      // nullIf('a', NULL) is 'a': true for an event without a person.
      "select count() from events where nullIf('a', person.properties.browser) = 'a'",
      "select count() from events where not (person.properties.browser = 'Chrome')",
      "select count() from events where person.properties.browser = 'Chrome' or 1 = 1",
      // An alias the rest of the query may name stays where it was defined.
      "select count() from events where person.properties.n > (person.properties.browser as b) group by b",
    ]) {
      expect(joinsPersons(await sql(text)), text).toBe(true);
    }
  });
});

describe('subqueries the translator builds', () => {
  it('compute only the person columns the query reads (USING columns count as read)', async () => {
    const text = await sql('select p.properties.email from persons p');
    expect(text).toContain('argMax(`raw`.`properties`');
    expect(text).not.toContain('argMax(`raw`.`created_at`');
    expect(text).not.toContain('argMax(`raw`.`is_identified`');
    const using = await sql('select count() from persons a join persons b using (created_at)');
    expect(using.match(/argMax\(`raw`\.`created_at`/g)).toHaveLength(2);
  });

  it('filter the FROM table before its joins', async () => {
    const text = await sql("select count() from events e join persons p on p.id = e.person_id where e.event = 'x' and p.properties.email = 'a'");
    expect(text).toMatch(/FROM \(SELECT \* FROM \(SELECT \* FROM `db`\.`events` WHERE team_id = \{p\d+:UInt64\}\) AS `e` WHERE equals\(`e`\.`event`, \{p\d+:String\}\)\) AS `e`/);
  });
});

describe('joins that can add rows of their own', () => {
  it('keep every condition where it was (RIGHT and FULL joins)', async () => {
    for (const kind of ['right join', 'full outer join']) {
      const text = await sql(`select count() from events e ${kind} persons p on p.id = e.person_id where e.event = 'x' and person.properties.email = 'a'`);
      expect(text, kind).not.toContain('FROM (SELECT * FROM (SELECT * FROM `db`.`events`');
      expect(joinsPersons(text), kind).toBe(true);
    }
  });
});
