// Identity and tenancy end to end (issue 3): a partner administrator invites a technician, who reads the invitation
// from the outbox, sets a password and enrolls TOTP; then an API key is created and shown once, used, rotated
// (the old key dies at once) and revoked. Real server, real outbox, real browser.
import { expect, test, type Page } from '@playwright/test';
import { freshTotp, outboxTo, screen, startServer, type TestServer } from './fixtures';
import { userByEmail } from '../../server/modules/users';

const TECH = {
  name: 'Dana Whitfield',
  email: 'dana.whitfield@northwind.demo',
  password: 'Lantern-Harbor-93!',
};
const ADMIN_EMAIL = 'riley.chen@northwind.demo';

let ts: TestServer;
let demoPassword: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true' });
  demoPassword = ts.server.demo?.password ?? '';
  expect(demoPassword).not.toBe('');
});

test.afterAll(async () => {
  await ts?.stop();
});

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** On /mfa/enroll: reads the secret, confirms a fresh code, keeps the recovery codes; returns the secret. */
async function enrollTotp(page: Page): Promise<string> {
  await expect(page.getByTestId('mfa-qr')).toBeVisible();
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const { code } = await freshTotp(secret);
  await page.getByTestId('mfa-enroll-code').fill(code);
  await page.getByTestId('mfa-enroll-submit').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  await page.getByTestId('recovery-codes-saved').check();
  await page.getByTestId('recovery-codes-continue').click();
  return secret;
}

async function callWithKey(
  path: string,
  key: string,
): Promise<{ status: number; body: { error?: string; name?: string } }> {
  const res = await fetch(`${ts.url}/api/v1${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as { error?: string; name?: string } };
}

test('an administrator invites a technician, who sets a password and TOTP; an API key lives its whole life', async ({
  page,
  browser,
}) => {
  const errors = watchErrors(page);

  // The partner administrator signs in with a password, then enrolls an authenticator: inviting needs MFA.
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(ADMIN_EMAIL);
  await page.getByTestId('login-password').fill(demoPassword);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home-greeting')).toContainText('Riley');
  await page.goto(`${ts.url}/mfa/enroll`);
  await enrollTotp(page);

  // Invite a technician with the built-in Partner Technician role and access to every organization.
  await page.goto(`${ts.url}/users`);
  await page.getByTestId('invite-user').click();
  const dialog = page.getByTestId('invite-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('invite-email').fill(TECH.email);
  await dialog.getByTestId('invite-name').fill(TECH.name);
  await dialog.getByTestId('invite-role').selectOption({ label: 'Partner Technician (built-in)' });
  const allOrgs = dialog.getByTestId('invite-org-access-all');
  if (await allOrgs.count()) await allOrgs.check();
  await screen(page, '20-invite-technician');
  await dialog.getByTestId('invite-send').click();
  await expect(dialog).toBeHidden();
  const invitedRow = page.getByTestId('user-row').filter({ hasText: TECH.email });
  await expect(invitedRow).toBeVisible();
  await expect(invitedRow).toContainText(/invited/i);
  await screen(page, '21-users-invited');

  // The invitation arrives in the outbox with a single-use link.
  await expect.poll(() => outboxTo(ts.server, TECH.email).length).toBeGreaterThan(0);
  const invitation = outboxTo(ts.server, TECH.email).at(-1)!;
  const link = /https?:\/\/\S+\/accept-invite\?token=[A-Za-z0-9_-]+/.exec(invitation.text)?.[0];
  expect(link, 'the invitation carries an accept link').toBeTruthy();

  // The technician, in their own browser, accepts: sets a password, then enrolls TOTP.
  const techContext = await browser.newContext();
  const tech = await techContext.newPage();
  const techErrors = watchErrors(tech);
  await tech.goto(link!.replace(/^https?:\/\/[^/]+/, ts.url));
  await expect(tech.getByTestId('accept-invite-details')).toContainText('Partner Technician');
  await tech.getByTestId('accept-invite-password').fill(TECH.password);
  await tech.getByTestId('accept-invite-password-confirm').fill(TECH.password);
  await screen(tech, '22-accept-invite');
  await tech.getByTestId('accept-invite-submit').click();
  await expect(tech).toHaveURL(/\/mfa\/enroll/);
  const techSecret = await enrollTotp(tech);
  expect(techSecret).toBeTruthy();
  // Signed in as the technician; stored as an active account with TOTP on.
  await tech.goto(`${ts.url}/`);
  await expect(tech.getByTestId('home-greeting')).toContainText('Dana');
  const stored = userByEmail(ts.server.context.db, TECH.email);
  expect(stored).toMatchObject({ status: 'active', mfa_enabled: 1, mfa_method: 'totp' });
  expect(techErrors).toEqual([]);
  await techContext.close();
  await page.reload();
  await expect(page.getByTestId('user-row').filter({ hasText: TECH.email })).toContainText(/active/i);

  // An API key for Contoso Dental: shown once, then never again.
  await page.goto(`${ts.url}/keys`);
  await page.getByTestId('create-api-key').click();
  const create = page.getByTestId('api-key-create-dialog');
  await create.getByTestId('api-key-org').selectOption({ label: 'Contoso Dental' });
  await create.getByTestId('api-key-name').fill('PSA bridge');
  await create.getByTestId('api-key-create-submit').click();
  const secret = ((await page.getByTestId('api-key-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
  await screen(page, '23-api-key-shown-once');
  await page.getByTestId('api-key-done').click();
  await expect(page.getByTestId('api-key-secret')).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = page.getByTestId('api-key-row').filter({ hasText: 'PSA bridge' });
  await expect(row).toContainText(secret.slice(0, 12));

  // Used: the key authenticates on its own.
  const used = await callWithKey('/api-keys/current', secret);
  expect(used.status).toBe(200);
  expect(used.body.name).toBe('PSA bridge');

  // Rotated: a new key is shown once; the old one is refused at once.
  await row.getByTestId('api-key-rotate').click();
  await page.getByTestId('api-key-rotate-dialog').getByTestId('confirm-action').click();
  const rotated = ((await page.getByTestId('api-key-secret').textContent()) ?? '').trim();
  expect(rotated).toMatch(/^svc_/);
  expect(rotated).not.toBe(secret);
  await page.getByTestId('api-key-done').click();
  expect((await callWithKey('/api-keys/current', secret)).status).toBe(401);
  expect((await callWithKey('/api-keys/current', rotated)).status).toBe(200);

  // Revoked: confirmed, shown as revoked, and the key stops working.
  await row.getByTestId('api-key-revoke').click();
  await page.getByTestId('api-key-revoke-dialog').getByTestId('confirm-action').click();
  await expect(row.getByTestId('api-key-status')).toContainText(/revoked/i);
  const revoked = await callWithKey('/api-keys/current', rotated);
  expect(revoked).toEqual({ status: 401, body: { error: 'API key is revoked' } });
  await screen(page, '24-api-key-revoked');

  // Tenants: a new organization (its slug follows the name; a cap must be a whole number), then a site in it.
  // The create-or-edit dialogs are titled and labelled for what they do.
  await page.goto(`${ts.url}/tenants`);
  await page.getByTestId('org-create').click();
  const orgDialog = page.getByTestId('org-dialog');
  await expect(orgDialog.getByRole('heading', { name: 'New organization' })).toBeVisible();
  await orgDialog.getByTestId('org-name').fill('Harbor Clinic');
  await expect(orgDialog.getByTestId('org-slug')).toHaveValue('harbor-clinic');
  await orgDialog.getByTestId('org-max-devices').fill('2.5');
  await orgDialog.getByTestId('org-save').click();
  await expect(orgDialog).toContainText('A whole number, or empty for no cap');
  await screen(page, '25-new-organization');
  await orgDialog.getByTestId('org-max-devices').fill('25');
  await expect(orgDialog.getByTestId('org-save')).toHaveText('Create organization');
  await orgDialog.getByTestId('org-save').click();
  await expect(page.getByTestId('org-title')).toHaveText('Harbor Clinic');
  await page.getByTestId('site-create').click();
  const siteDialog = page.getByTestId('site-dialog');
  await expect(siteDialog.getByRole('heading', { name: 'Add site' })).toBeVisible();
  await siteDialog.getByTestId('site-name').fill('Front desk');
  await siteDialog.getByTestId('site-save').click();
  await expect(page.getByTestId('site-row')).toContainText('Front desk');
  await page.getByTestId('org-edit').click();
  await expect(orgDialog.getByRole('heading', { name: 'Edit Harbor Clinic' })).toBeVisible();
  await expect(orgDialog.getByTestId('org-save')).toHaveText('Save changes');
  await screen(page, '26-edit-organization');
  expect(errors).toEqual([]);
});
