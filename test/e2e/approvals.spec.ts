// Privileged access end to end (issue 5): a demo server with simulated agents speaking the real agent protocol, a
// technician with a real platform authenticator (Chromium's CDP virtual authenticator: internal transport, user
// verification). The technician registers this computer as an approver device; a simulated agent raises an
// elevation request that appears in the inbox without a reload; the technician approves with the authenticator;
// the agent receives the grant and reports it active; the technician revokes it and the agent cleans up. A second
// test shows a critical AI tool action asking for re-authentication before it can be approved.
import { expect, test } from '@playwright/test';
import { demoSimulator } from '../../server/modules/demo/simulator';
import type { SimulatedElevationKind } from '../../server/contract';
import {
  addPlatformAuthenticator,
  MfaTechnician,
  registerApproverDevice,
  screen,
  startServer,
  type TestServer,
  watchErrors,
} from './fixtures';

const AGENTS = 3;
const TECH = 'sam.ortiz@northwind.demo';

let ts: TestServer;
let password: string;
let person: MfaTechnician;

test.describe.configure({ mode: 'serial' });

const db = () => ts.server.context.db;
const requestRow = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, unknown>;
const simulator = () => demoSimulator(ts.server.context);

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: String(AGENTS), AGENT_HEARTBEAT_SECONDS: '2' });
  password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  await expect
    .poll(() => simulator().status().connected, { timeout: 30_000, message: 'the simulated agents connect' })
    .toBe(AGENTS);
  // Writes need an MFA session: the technician enrolls TOTP once, then signs in with fresh codes.
  person = new MfaTechnician(ts, TECH, password);
  await person.enrollTotp();
});

test.afterAll(async () => {
  await ts?.stop();
});

/** A platform authenticator with user verification, as Windows Hello or Touch ID presents itself. */
async function raise(kind: SimulatedElevationKind): Promise<string> {
  const raised = await simulator().raiseElevation({ kind });
  expect(raised.status).toBe('pending');
  return raised.id as string;
}

test('a technician approves an elevation with the platform authenticator, then revokes it', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await addPlatformAuthenticator(page);
  await person.signIn(page, 'Sam');

  // Register this computer as an approver device.
  await page.getByTestId('nav-approvals').click();
  await page.getByTestId('approvals-tab-devices').click();
  await expect(page.getByTestId('approver-devices-empty')).toBeVisible();
  await page.getByTestId('approver-device-name').fill('Sam’s workstation');
  // Adding an authenticator asks for the password again: a stolen session alone cannot add one.
  await page.getByTestId('approver-device-password').fill(password);
  await page.getByTestId('register-approver-device').click();
  await expect(page.getByTestId('register-done')).toBeVisible();
  await expect(page.getByTestId('approver-device-list')).toContainText('Sam’s workstation');
  await screen(page, '50-approver-devices');

  // The inbox is open when the agent raises its request: it appears without a reload.
  await page.getByTestId('approvals-tab-pending').click();
  await expect(page.getByTestId('approvals-inbox')).toBeVisible();
  const id = await raise('signed_installer');
  const row = page.getByTestId(`approval-row-${id}`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId('approvals-pending-count')).toHaveText('1');
  await screen(page, '51-approvals-inbox');

  // Everything needed to decide, then approve: Chromium asks the platform authenticator (user verified).
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/approvals/${id}$`));
  await expect(page.getByTestId('request-status')).toHaveText('Pending');
  await expect(page.getByTestId('approver-device-badge')).toBeVisible();
  await screen(page, '52-request-view');
  await page.getByTestId('approve').click();

  // The console sends the approval to the device; the agent grants it and reports it active.
  await expect(page.getByTestId('request-enforcement')).toHaveAttribute('data-value', 'active', {
    timeout: 20_000,
  });
  // The status follows the device's report: the grant is active there, no longer "Actuating".
  await expect(page.getByTestId('request-status')).toHaveText('Active on the device');
  await expect(page.getByTestId('approve-done')).toContainText('active on');
  await expect(page.getByTestId('assurance')).toContainText('(L2)');
  const approved = requestRow(id);
  expect(approved).toMatchObject({
    status: 'actuating',
    enforcement_status: 'active',
    assurance_level: 2,
    assurance_method: 'platform_authenticator',
  });
  expect(approved.assurance_device_id).toBeTruthy();
  expect(simulator().status().elevation?.grantsActive).toBe(1);
  await screen(page, '53-request-approved-active');

  // Revoke: the agent is told to clean up and confirms.
  await page.getByTestId('revoke').click();
  await page.getByTestId('revoke-reason').fill('Installer finished');
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('request-status')).toHaveText('Revoked');
  await expect(page.getByTestId('request-enforcement')).toHaveAttribute('data-value', 'cleaned_up', {
    timeout: 20_000,
  });
  // The banner follows the device's report too: no longer "Cleanup was sent" once it says it cleaned up.
  await expect(page.getByTestId('revoke-done')).toHaveText(
    'Revoked. The device reports the elevation removed.',
  );
  expect(requestRow(id)).toMatchObject({ status: 'revoked', enforcement_status: 'cleaned_up' });
  expect(simulator().status().elevation?.grantsActive).toBe(0);
  await screen(page, '54-request-revoked');
  expect(errors).toEqual([]);
});

test('a critical request asks for re-authentication before it can be approved', async ({ page }) => {
  const errors = watchErrors(page);
  await addPlatformAuthenticator(page);
  await person.signIn(page, 'Sam');
  // The authenticator of this browser context is new: register it (the first test's one went with its page).
  await registerApproverDevice(page, 'Sam’s laptop', password);

  const id = await raise('ai_tool_critical');
  expect(requestRow(id).risk_level).toBe('critical');
  await page.goto(`${ts.url}/approvals/${id}`);
  await expect(page.getByTestId('request-status')).toHaveText('Pending');
  const reauth = page.getByTestId('reauth-password');
  await expect(reauth).toBeVisible();
  await screen(page, '55-critical-reauth');

  // A wrong password is refused and nothing is decided; the right one approves at level 3.
  await reauth.fill('not-my-password');
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('decision-panel')).toContainText(/re-authentication failed/i);
  expect(requestRow(id).status).toBe('pending');
  await reauth.fill(password);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('request-status')).not.toHaveText('Pending', { timeout: 20_000 });
  await expect(page.getByTestId('assurance')).toContainText('(L3)');
  expect(requestRow(id)).toMatchObject({
    assurance_level: 3,
    assurance_method: 'platform_authenticator_reauth',
  });
  await screen(page, '56-critical-approved');
  expect(errors).toEqual([]);
});
