// The rough edges a new user hits, console side (issue 16): on the demo, a partner technician's sidebar offers only
// the sections their role may use (no Users & roles to run into a permission wall), a deep link still explains the
// refusal, and Ctrl+K finds the Approvals page for "approval" and the waiting request for "elevation", by keyboard.
// A read-only organization user sees Users & roles without "Invite user"; the administrator's pickers offer only
// what Gatehouse has, and a new elevation rule starts at Require approval.
import { expect, test, type Page } from '@playwright/test';
import { demoSimulator } from '../../server/modules/demo/simulator';
import { screen, startServer, type TestServer, watchErrors } from './fixtures';

let ts: TestServer;
let password: string;
let requestId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: '1', AGENT_HEARTBEAT_SECONDS: '2' });
  password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  const simulator = demoSimulator(ts.server.context);
  await expect
    .poll(() => simulator.status().connected, { timeout: 30_000, message: 'the simulated agent connects' })
    .toBe(1);
  const raised = await simulator.raiseElevation({ kind: 'signed_installer' });
  expect(raised.status).toBe('pending');
  requestId = raised.id as string;
});

test.afterAll(async () => {
  await ts?.stop();
});

/** Signs a demo account in through the login page (reading needs no MFA session). */
async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home-greeting')).toBeVisible();
}

test('a technician’s nav and search offer only what they may use', async ({ page }) => {
  const errors = watchErrors(page);
  // Sam is a partner technician: devices, approvals and organizations, but no users:read.
  await signIn(page, 'sam.ortiz@northwind.demo');
  await expect(page.getByTestId('nav-approvals')).toBeVisible();
  await expect(page.getByTestId('nav-devices')).toBeVisible();
  await expect(page.getByTestId('nav-users')).toHaveCount(0);
  await expect(page.getByTestId('nav-access-reviews')).toHaveCount(0);
  await expect(page.getByTestId('nav-pam-policy')).toHaveCount(0);
  await screen(page, '90-technician-nav');

  // A deep link still opens the page, which says why it shows nothing.
  await page.goto(`${ts.url}/users`);
  await expect(page.getByTestId('access-notice')).toBeVisible();

  // Ctrl+K "approval": the Approvals page first, Enter opens it.
  await page.getByTestId('nav-devices').click();
  await expect(page.getByTestId('page-title')).toHaveText('Devices');
  await page.keyboard.press('Control+k');
  const box = page.getByTestId('global-search');
  await expect(box).toBeFocused();
  await box.fill('approval');
  const results = page.getByTestId('global-search-result');
  await expect(results.first()).toContainText('Approvals');
  // The policy pages need pam:manage_policy, which a technician lacks.
  await expect(page.getByTestId('global-search-results')).not.toContainText('Elevation policy');
  await screen(page, '91-search-approval');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${ts.url}/approvals`);

  // Ctrl+K "elevation": the pages about elevations and the request waiting for a decision; arrows reach it.
  await page.keyboard.press('Control+k');
  await box.fill('elevation');
  const requestGroup = page.getByRole('group', { name: 'Elevation requests' });
  await expect(requestGroup.getByTestId('global-search-result')).toHaveCount(1);
  await screen(page, '92-search-elevation');
  const all = await results.allTextContents();
  const index = all.findIndex((text) => text.includes('High') || text.includes('risk'));
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${ts.url}/approvals/${requestId}`);
  expect(errors).toEqual([]);
});

test('a read-only user sees people without the buttons to change them', async ({ page }) => {
  await signIn(page, 'morgan.blake@fabrikam.demo');
  await page.getByTestId('nav-users').click();
  await expect(page.getByTestId('user-count')).toBeVisible();
  await expect(page.getByTestId('invite-user')).toHaveCount(0);
  await page.getByTestId('tab-roles').click();
  await expect(page.getByTestId('role-create')).toHaveCount(0);
  await screen(page, '93-read-only-users');
});

test('an administrator’s pickers offer only what Gatehouse has', async ({ page }) => {
  await signIn(page, 'riley.chen@northwind.demo');
  // A new role: the matrix has no Scripts, Alerts, Automations, Reports, Remote or Settings rows.
  await page.goto(`${ts.url}/users/roles/new`);
  const matrix = page.getByTestId('permission-matrix');
  await expect(matrix).toContainText('devices');
  for (const gone of ['scripts', 'alerts', 'automations', 'reports', 'remote', 'settings'])
    await expect(matrix).not.toContainText(gone);
  await screen(page, '94-role-editor');

  // A new elevation rule requires approval until someone chooses otherwise.
  await page.goto(`${ts.url}/pam/rules/new`);
  await expect(page.getByTestId('rule-verdict')).toHaveValue('require_approval');
  await screen(page, '95-new-rule');

  // Service management: no built-in service desk to choose.
  await page.goto(`${ts.url}/settings/service`);
  const service = page.getByTestId('settings-service');
  await expect(service).toBeVisible();
  await expect(page.getByTestId('service-mode-native')).toHaveCount(0);
  await expect(page.getByTestId('service-mode-off')).toBeVisible();
  await expect(page.getByTestId('service-mode-external')).toBeVisible();
  await service.scrollIntoViewIfNeeded();
  await screen(page, '96-service-management');
});
