// Fleet screens end to end (issue 16, item 3): on a demo server with simulated agents, a partner administrator
// creates a device group and adds two devices from the picker, and a platform administrator registers an agent
// version and stages its rollout. Real server, real agents, real browser; screenshots at 1280x800.
import { expect, test } from '@playwright/test';
import { MfaTechnician, screen, startServer, watchErrors, type TestServer } from './fixtures';

const AGENTS = 8;
const PARTNER_ADMIN = 'riley.chen@northwind.demo';
const VERSION = '9.1.0';

let ts: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: String(AGENTS), AGENT_HEARTBEAT_SECONDS: '2' });
  const online = () =>
    (
      ts.server.context.db.prepare("SELECT COUNT(*) AS n FROM devices WHERE status = 'online'").get() as {
        n: number;
      }
    ).n;
  await expect.poll(online, { timeout: 30_000, message: 'the simulated agents enroll' }).toBe(AGENTS);
});

test.afterAll(async () => {
  await ts?.stop();
});

test('a partner administrator creates a device group and adds two devices from the picker', async ({
  page,
}) => {
  const errors = watchErrors(page);
  const riley = new MfaTechnician(ts, PARTNER_ADMIN, ts.server.demo?.password ?? '');
  await riley.enrollTotp();
  await riley.signIn(page, 'Riley');

  // The Devices header counts the organizations that hold devices, from one facets request.
  await page.getByTestId('nav-devices').click();
  await expect(page.getByText(`${AGENTS} devices across 1 organization.`)).toBeVisible();
  await expect(page.getByTestId('device-status-online')).toContainText(String(AGENTS));

  await page.getByTestId('nav-device-groups').click();
  await expect(page.getByTestId('groups-empty')).toBeVisible();
  await page.getByTestId('group-create').first().click();
  await page.getByTestId('group-org').selectOption({ label: 'Contoso Dental' });
  await page.getByTestId('group-name').fill('Front desk');
  await page.getByTestId('group-description').fill('Reception and check-in PCs');
  await screen(page, 'fleet-group-create');
  await page.getByTestId('group-form-submit').click();

  await expect(page.getByTestId('group-detail')).toBeVisible();
  await expect(page.getByTestId('group-members-empty')).toBeVisible();
  await page.getByTestId('group-add-members').click();
  const picks = page.getByTestId('member-pick');
  await expect(picks).toHaveCount(AGENTS);
  await picks.nth(0).check();
  await picks.nth(1).check();
  await expect(page.getByTestId('add-members-submit')).toHaveText('Add 2 devices');
  await screen(page, 'fleet-group-picker');
  await page.getByTestId('add-members-submit').click();

  await expect(page.getByTestId('group-member-row')).toHaveCount(2);
  await expect(page.getByTestId('group-member-count')).toContainText('2 devices');
  await screen(page, 'fleet-group-detail');

  await page.getByRole('link', { name: 'Device groups' }).first().click();
  const row = page.getByTestId('group-row').filter({ hasText: 'Front desk' });
  await expect(row.getByTestId('group-device-count')).toHaveText('2 devices');
  await screen(page, 'fleet-groups');

  // A member links to its device page.
  await row.getByTestId('group-link').click();
  const first = page.getByTestId('group-member-link').first();
  const hostname = await first.textContent();
  await first.click();
  await expect(page).toHaveURL(/\/devices\/[0-9a-f-]{36}$/);
  await expect(page.getByText(hostname ?? '').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('a platform administrator registers an agent version and stages its rollout', async ({ page }) => {
  const errors = watchErrors(page);
  const platform = ts.server.demo?.platformAdmin;
  expect(platform, 'the demo leaves a platform administrator').toBeTruthy();
  const admin = new MfaTechnician(ts, platform!.email, platform!.password);
  await admin.enrollTotp();
  await admin.signIn(page, 'Platform');

  await page.getByTestId('nav-agent-versions').click();
  await expect(page.getByTestId('agent-versions-summary')).toContainText(`${AGENTS} devices in your scope`);
  await page.getByTestId('register-version').first().click();
  await page.getByTestId('register-version-number').fill(VERSION);
  await page.getByTestId('register-platform').selectOption('windows');
  await page.getByTestId('register-architecture').selectOption('amd64');
  await page
    .getByTestId('register-url')
    .fill(`https://downloads.example.com/gatehouse-agent-${VERSION}-windows-amd64.exe`);
  await page.getByTestId('register-checksum').fill('abc123');
  await page.getByTestId('register-version-submit').click();
  // The server's validation message, as the spec words it.
  await expect(page.getByTestId('register-version-error')).toContainText(
    'checksum must be a SHA-256 checksum (64 hexadecimal characters)',
  );
  await page.getByTestId('register-checksum').fill('3f'.repeat(32));
  await screen(page, 'fleet-agent-version-register');
  await page.getByTestId('register-version-submit').click();
  await expect(page.getByTestId('register-version-dialog')).toBeHidden();

  const row = page.locator(`[data-testid="agent-version-row"][data-version="${VERSION}"]`);
  await expect(row.getByTestId('agent-version-latest')).toBeVisible();
  await expect(row.getByTestId('agent-version-rollout')).toHaveText('All eligible devices');
  await row.getByTestId('agent-version-stage').click();
  await page.getByTestId('rollout-preset-25').click();
  await expect(page.getByTestId('rollout-percent')).toHaveValue('25');
  await screen(page, 'fleet-agent-version-rollout');
  await page.getByTestId('rollout-submit').click();
  await expect(row.getByTestId('agent-version-rollout')).toHaveText('25 % of eligible devices');
  expect(
    ts.server.context.db.prepare('SELECT percent FROM agent_version_rollouts WHERE version = ?').get(VERSION),
  ).toEqual({ percent: 25 });
  await screen(page, 'fleet-agent-versions');
  expect(errors).toEqual([]);
});
