// People and access in Chromium against a real Hoglet: an owner invites a teammate from Settings →
// Members and the invite link, opened in a fresh browser, makes their account and signs them in;
// a personal API key made with the scope picker works with fetch against /api/projects/, and after
// a roll the old value is a 401; projects are created, switched to and deleted (typed name); a
// password change and "sign out everywhere" as the API answers them. Screenshots:
// docs/screenshots/settings-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, openPage, PASSWORD, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 90_000;
const TEAMMATE = 'grace@example.com';
const TEAMMATE_PASSWORD = 'teammate password 1';

/** What fetch answers from inside the page: the key in the header, as a script would send it. */
const fetchWithKey = (page: Page, key: string, url: string) =>
  page.evaluate(async ([k, u]) => (await fetch(u!, { headers: { Authorization: `Bearer ${k}` }, credentials: 'omit' })).status, [key, url] as const);

async function signInThroughForm(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByTestId('signed-in-email').textContent().catch(() => null)).toBe(email);
}

describe.skipIf(!hasChromium)('people and access in Chromium', () => {
  let w: World;
  let settings: string;

  beforeAll(async () => {
    w = await startWorld();
    settings = `${w.base}/project/${w.who.projectId}/settings`;
  }, 180_000);
  afterAll(() => w?.close());

  it('invite a teammate: the link opened in a fresh browser sets a name and password and lands in the organization', async () => {
    const owner = await openPage(w);
    const { page } = owner;
    await page.goto(`${settings}/members`);
    const rows = page.getByTestId('member-row');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Email', { exact: true }).fill(TEAMMATE);
    await page.getByLabel('First name').fill('Grace');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = (await page.getByTestId('invite-link-value').textContent())!;
    const invites = (await getApi(w, '/api/organizations/@current/invites/')).results;
    expect(invites.map((i: { target_email: string }) => i.target_email)).toEqual([TEAMMATE]);
    expect(link).toBe(`${w.base}/signup/${invites[0].id}`);
    await expect.poll(() => page.getByTestId('invite-row').count()).toBe(1);
    await screenshot(page, 'settings-members-invite');

    const invitee = await openPage(w, { signIn: false });
    await invitee.page.goto(link);
    await expect.poll(() => invitee.page.getByTestId('signup-organization').textContent()).toContain('Analytical Engines');
    expect(await invitee.page.locator('input[name=first_name]').inputValue()).toBe('Grace');
    await invitee.page.locator('input[name=password]').fill(TEAMMATE_PASSWORD);
    await screenshot(invitee.page, 'settings-invite-signup');
    await invitee.page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => invitee.page.getByTestId('signed-in-email').textContent().catch(() => null), { timeout: 15_000 }).toBe(TEAMMATE);
    expect(invitee.page.url()).toContain(`/project/${w.who.projectId}/`);

    // The owner's list shows them as the API does; the owner makes them an admin.
    await page.reload();
    await expect.poll(() => rows.count()).toBe(2);
    const api = (await getApi(w, '/api/organizations/@current/members/')).results;
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-email'), Number(tr.getAttribute('data-level'))]));
    expect(shown).toEqual(api.map((m: any) => [m.user.email, m.level]));
    await page.getByLabel(`Level of ${TEAMMATE}`).selectOption('8');
    await expect.poll(async () => (await getApi(w, '/api/organizations/@current/members/')).results.find((m: any) => m.user.email === TEAMMATE).level).toBe(8);
    await expect.poll(() => page.locator(`[data-testid=member-row][data-email="${TEAMMATE}"]`).getAttribute('data-level')).toBe('8');
    expect(await page.getByTestId('invite-row').count()).toBe(0);
    await screenshot(page, 'settings-members');
    // The last owner cannot leave: the page says why and stays.
    const ownRow = page.locator(`[data-testid=member-row][data-email="${w.who.email}"]`);
    await ownRow.getByRole('button', { name: 'Leave' }).click();
    await ownRow.getByRole('alert').getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => page.getByTestId('members-settings').getByRole('alert').first().textContent()).toContain('last owner');
    expect(page.url()).toContain('/settings/members');

    // And they sign in with their password in yet another browser.
    const again = await openPage(w, { signIn: false });
    await signInThroughForm(again.page, w.base, TEAMMATE, TEAMMATE_PASSWORD);
    for (const watched of [owner, invitee, again]) {
      expect(watched.problems).toEqual([]);
      await watched.context.close();
    }
  }, TIMEOUT);

  it('make a key with the scope picker, use it with fetch, roll it and the old value is a 401', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${settings}/personal-api-keys`);
    await page.locator('input[name=key-label]').fill('Script');
    await page.getByLabel('Scope project', { exact: true }).selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = (await page.getByTestId('new-key-value').textContent())!;
    expect(value).toMatch(/^phx_/);
    const listed = (await w.t.request(null, { method: 'GET', url: '/api/personal_api_keys/', headers: { authorization: `Bearer ${value}` } }));
    // A key may not list keys (PostHog's rule); the owner's session lists them below.
    expect(listed.statusCode).toBe(403);

    expect(await fetchWithKey(page, value, '/api/projects/')).toBe(200);
    // Its scope is project:read only.
    expect(await fetchWithKey(page, value, `/api/projects/${w.who.projectId}/insights/`)).toBe(403);
    await page.reload();
    const row = page.locator('[data-testid=key-row][data-label=Script]');
    await expect.poll(() => row.getByTestId('key-last-used').textContent()).not.toBe('Never');
    expect(await row.textContent()).toContain(`${value.slice(0, 4)}...${value.slice(-4)}`);
    expect(await page.getByTestId('new-key').count()).toBe(0);
    await screenshot(page, 'settings-personal-api-keys');

    await row.getByRole('button', { name: 'Roll' }).click();
    const rolled = (await page.getByTestId('new-key-value').textContent())!;
    expect(rolled).not.toBe(value);
    expect(await fetchWithKey(page, value, '/api/projects/')).toBe(401);
    expect(await fetchWithKey(page, rolled, '/api/projects/')).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await row.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await fetchWithKey(page, rolled, '/api/projects/')).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('projects: create one (and land in it), switch back with the picker, delete it after typing its name', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${settings}/projects`);
    await page.getByLabel('New project name').fill('Second product');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => page.url()).toMatch(/\/project\/\d+\/insights$/);
    const created = Number(/\/project\/(\d+)\//.exec(page.url())![1]);
    expect(created).not.toBe(w.who.projectId);
    expect((await getApi(w, '/api/users/@me/')).team.id).toBe(created);
    const picker = page.locator('select[name=project]');
    expect(await picker.inputValue()).toBe(String(created));
    expect(await picker.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Second product']));

    await picker.selectOption(String(w.who.projectId));
    await expect.poll(() => page.url()).toContain(`/project/${w.who.projectId}/`);
    // The picker makes it the current project, as PostHog's does.
    await expect.poll(async () => (await getApi(w, '/api/users/@me/')).team.id).toBe(w.who.projectId);
    await page.goto(`${settings}/projects`);
    const row = page.locator('[data-testid=project-row][data-name="Second product"]');
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByTestId('delete-project');
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('input[name=confirm-project-name]').fill('Second produc');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('input[name=confirm-project-name]').fill('Second product');
    await screenshot(page, 'settings-projects');
    await confirm.click();
    await expect.poll(() => row.count()).toBe(0);
    const names = (await getApi(w, '/api/projects/')).results.map((p: { name: string }) => p.name);
    expect(names).not.toContain('Second product');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('change password; sign out everywhere signs another browser out', async () => {
    const one = await openPage(w, { signIn: false });
    await signInThroughForm(one.page, w.base, TEAMMATE, TEAMMATE_PASSWORD);
    const two = await openPage(w, { signIn: false });
    await signInThroughForm(two.page, w.base, TEAMMATE, TEAMMATE_PASSWORD);

    await one.page.goto(`${settings}/account`);
    const form = one.page.getByRole('form', { name: 'Change password' });
    await form.locator('input[name=current-password]').fill('not my password');
    await form.locator('input[name=new-password]').fill('a brand new password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Your current password is incorrect.');
    await form.locator('input[name=current-password]').fill(TEAMMATE_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toContain('Password changed');
    await screenshot(one.page, 'settings-account');
    // The other browser was signed out by the change; this one stays.
    await two.page.reload();
    await expect.poll(() => two.page.url()).toContain('/login');
    const login = (password: string) => w.t.app.inject({ method: 'POST', url: '/api/login/', payload: { email: TEAMMATE, password } });
    expect((await login(TEAMMATE_PASSWORD)).statusCode).toBe(400);
    expect((await login('a brand new password')).statusCode).toBe(200);

    await signInThroughForm(two.page, w.base, TEAMMATE, 'a brand new password');
    await one.page.reload();
    await one.page.getByTestId('sign-out-everywhere').getByRole('button', { name: 'Sign out everywhere' }).click();
    await one.page.getByTestId('sign-out-everywhere').getByRole('alert').getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => one.page.url()).toContain('/login');
    await two.page.reload();
    await expect.poll(() => two.page.url()).toContain('/login');
    expect((await two.context.request.get(`${w.base}/api/users/@me/`)).status()).toBe(401);
    // The owner (another user) is still signed in elsewhere: only Grace's sessions ended.
    const owner = await openPage(w);
    expect((await owner.context.request.get(`${w.base}/api/users/@me/`)).status()).toBe(200);
    for (const watched of [one, two, owner]) {
      expect(watched.problems).toEqual([]);
      await watched.context.close();
    }
    expect(PASSWORD).toBeTruthy();
  }, TIMEOUT);
});
