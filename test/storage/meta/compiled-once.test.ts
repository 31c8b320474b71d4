// Hot metadata reads are built once per shape and then only bound (compiled-once.ts): every call
// must still answer for its own values, whatever shape (list lengths, optional arguments) came
// before it, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';

describe.each(META_STORES)('reads compiled once, on %s', (store) => {
  let t: TestApp;
  let ann: Credentials;
  let bob: Credentials;
  beforeAll(async () => {
    t = await createTestApp(store);
    ann = await t.bootstrap('ann@example.com');
    bob = await t.bootstrap('bob@example.com');
  });
  afterAll(() => t.close());

  it('answer for the values of each call, with and without the optional organization', async () => {
    const { projects } = t.services.repositories;
    const own = await projects.findVisible(ann.userId, ann.projectId);
    expect(own).toMatchObject({ id: ann.projectId, membership_level: MembershipLevel.owner });
    // Same shape, other values: Bob's project is not Ann's to see, his own is.
    expect(await projects.findVisible(ann.userId, bob.projectId)).toBeUndefined();
    expect(await projects.findVisible(bob.userId, bob.projectId)).toMatchObject({ id: bob.projectId });
    // The organization narrows; a wrong one finds nothing.
    expect(await projects.findVisible(ann.userId, ann.projectId, ann.organizationId)).toMatchObject({ id: ann.projectId });
    expect(await projects.findVisible(ann.userId, ann.projectId, bob.organizationId)).toBeUndefined();
    expect(await projects.findVisible(ann.userId, ann.projectId)).toMatchObject({ id: ann.projectId });
  });

  it('bind lists of every length', async () => {
    const { users } = t.services.repositories;
    await t.addMember(ann.organizationId, 'cy@example.com', MembershipLevel.member);
    const cy = (await users.findByEmail('cy@example.com'))!;
    const emails = async (ids: number[]) => (await users.findMembers(ann.organizationId, ids)).map((u) => u.email).sort();
    expect(await emails([ann.userId])).toEqual(['ann@example.com']);
    expect(await emails([ann.userId, cy.id])).toEqual(['ann@example.com', 'cy@example.com']);
    // Bob is not a member of Ann's organization, whatever list he is in.
    expect(await emails([bob.userId, cy.id, ann.userId])).toEqual(['ann@example.com', 'cy@example.com']);
    expect(await emails([cy.id])).toEqual(['cy@example.com']);
  });
});
