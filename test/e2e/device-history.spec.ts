// Device history end to end (issue 16 item 3): a demo server whose simulated agents send heartbeats with metrics
// and their software inventory. A technician opens a device: the Performance tab charts its CPU, memory and disk,
// the Software tab lists and searches what the agent reported, the Elevations tab shows its requests. Real
// server, real agents, real browser; screenshots at 1280x800.
import { expect, test, type Page } from '@playwright/test';
import { demoSimulator } from '../../server/modules/demo';
import { screen, startServer, watchErrors, type TestServer } from './fixtures';

const AGENTS = 4;
const TECH = 'sam.ortiz@northwind.demo';

let ts: TestServer;
let demoPassword: string;

test.describe.configure({ mode: 'serial' });

const db = () => ts.server.context.db;
const count = (sql: string, ...params: unknown[]) =>
  (
    db()
      .prepare(sql)
      .get(...params) as { n: number }
  ).n;

/** A device whose agent has reported software and whose metrics reached the series (flushed every 5 s). */
function readyDevice(): { id: string; hostname: string } | undefined {
  return db()
    .prepare(
      `SELECT d.id, d.hostname FROM devices d
       WHERE EXISTS (SELECT 1 FROM device_metric_points p WHERE p.device_id = d.id AND p.resolution = 'minute')
         AND EXISTS (SELECT 1 FROM device_software s WHERE s.device_id = d.id)
       ORDER BY d.hostname LIMIT 1`,
    )
    .get() as { id: string; hostname: string } | undefined;
}

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: String(AGENTS), AGENT_HEARTBEAT_SECONDS: '2' });
  demoPassword = ts.server.demo?.password ?? '';
  expect(demoPassword).not.toBe('');
  await expect
    .poll(() => readyDevice()?.id ?? null, {
      timeout: 45_000,
      message: 'a simulated agent heartbeats with metrics and reports its software',
    })
    .not.toBeNull();
});

test.afterAll(async () => {
  await ts?.stop();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(TECH);
  await page.getByTestId('login-password').fill(demoPassword);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home-greeting')).toContainText('Sam');
}

test('a device page charts its metrics and lists its software', async ({ page }) => {
  const errors = watchErrors(page);
  const device = readyDevice();
  if (!device) throw new Error('no device ready');
  await signIn(page);

  await page.goto(`${ts.url}/devices/${device.id}`);
  await expect(page.getByTestId('device-title')).toBeVisible();
  await page.getByTestId('device-tab-performance').click();
  const cpu = page.getByTestId('device-metric-cpu');
  await expect(cpu).toBeVisible();
  // uPlot draws on a canvas: the chart is there once its canvas is.
  await expect(cpu.locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('device-metric-memory').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('device-metric-disk').locator('canvas').first()).toBeVisible();
  await expect(cpu).toContainText('Latest');
  await screen(page, '80-device-performance');
  await page.getByTestId('metrics-range-7d').click();
  await expect(page.getByTestId('metrics-range-7d')).toHaveAttribute('aria-checked', 'true');
  await expect(cpu.locator('canvas').first()).toBeVisible();

  await page.getByTestId('device-tab-software').click();
  const total = count('SELECT COUNT(*) AS n FROM device_software WHERE device_id = ?', device.id);
  await expect(page.getByTestId('software-count')).toContainText(`${total} program`);
  await expect(page.getByTestId('software-row').first()).toBeVisible();
  await screen(page, '81-device-software');
  const first = db()
    .prepare('SELECT name FROM device_software WHERE device_id = ? ORDER BY name COLLATE NOCASE LIMIT 1')
    .get(device.id) as { name: string };
  await page.getByTestId('software-search').fill(first.name);
  await expect(page.getByTestId('software-row').first()).toContainText(first.name);
  await page.getByTestId('software-search').fill('no-such-program-anywhere');
  await expect(page.getByTestId('software-empty')).toContainText('Nothing matches');

  expect(errors).toEqual([]);
});

/** The status pill's words for the statuses a freshly raised request can be in (approvals/format.ts). */
const STATUS_WORDS: Record<string, string> = {
  pending: 'Pending',
  approved: 'Approved',
  auto_approved: 'Auto-approved',
  actuating: 'Actuating',
  denied: 'Denied',
  revoked: 'Revoked',
  expired: 'Expired',
};

test("a device's Elevations tab lists a request raised on it, with its status, and opens it", async ({
  page,
}) => {
  const errors = watchErrors(page);
  // A simulated agent asks for elevation, as the demo panel's "Raise elevation request" makes it do.
  const raised = await demoSimulator(ts.server.context).raiseElevation({ kind: 'unsigned_tool' });
  if (!raised.id) throw new Error('the demo policy ignored the request');
  const requestId = raised.id;
  const statusNow = () =>
    (db().prepare('SELECT status FROM elevation_requests WHERE id = ?').get(requestId) as { status: string })
      .status;
  await signIn(page);

  await page.goto(`${ts.url}/devices/${raised.deviceId}`);
  await expect(page.getByTestId('device-title')).toContainText(raised.hostname);
  await page.getByTestId('device-tab-elevations').click();
  const row = page.locator(`[data-testid="device-elevation-row"][href*="${requestId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText(STATUS_WORDS[statusNow()] ?? statusNow());
  // Only this device's requests (a page holds 50): as many rows as the server holds for this device.
  const onDevice = count('SELECT COUNT(*) AS n FROM elevation_requests WHERE device_id = ?', raised.deviceId);
  await expect(page.getByTestId('device-elevation-row')).toHaveCount(Math.min(onDevice, 50));
  await screen(page, '82-device-elevations');

  await row.click();
  await expect(page).toHaveURL(new RegExp(requestId));
  expect(errors).toEqual([]);
});

test('the management posture screen counts products per organization and opens the devices behind a count', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await expect
    .poll(() => count('SELECT COUNT(*) AS n FROM devices WHERE management_posture IS NOT NULL'), {
      timeout: 30_000,
      message: 'the simulated agents report their management posture',
    })
    .toBeGreaterThan(0);
  await signIn(page);
  await page.getByTestId('nav-posture').click();
  await expect(page.getByTestId('posture-page')).toBeVisible();
  await expect(page.getByTestId('posture-totals')).toContainText('never reported');
  await expect(page.getByTestId('posture-org').first()).toBeVisible();
  const firstCount = page.getByTestId('posture-count').first();
  await expect(firstCount).toBeVisible();
  const shown = Number((await firstCount.innerText()).split(/\s/)[0]?.replace(/,/g, ''));
  await screen(page, '83-posture');
  await firstCount.click();
  await expect(page.getByTestId('posture-device-row')).toHaveCount(Math.min(shown, 100));
  await screen(page, '84-posture-drill');
  await page.getByTestId('posture-device-row').first().getByRole('link').click();
  await expect(page.getByTestId('device-detail')).toBeVisible();
  expect(errors).toEqual([]);
});

test('the agent versions screen lists the builds and counts the devices on each version', async ({
  page,
}) => {
  const errors = watchErrors(page);
  // The build the simulated agents run, registered as an administrator would (no upgrade is offered: not newer).
  const running = (db().prepare('SELECT agent_version AS v FROM devices LIMIT 1').get() as { v: string }).v;
  db()
    .prepare(
      `INSERT OR IGNORE INTO agent_versions (id, version, platform, architecture, download_url, checksum, size_bytes,
         source, is_latest, created_at)
       VALUES ('e2e-build', ?, 'linux', 'amd64', 'https://downloads.example.test/agent', ?, 12582912, 'manual', 1, ?)`,
    )
    .run(running, 'a'.repeat(64), new Date().toISOString());
  await signIn(page);
  await page.getByTestId('nav-agent-versions').click();
  await expect(page.getByTestId('agent-versions-page')).toBeVisible();
  const devices = count("SELECT COUNT(*) AS n FROM devices WHERE status <> 'decommissioned'");
  await expect(page.getByTestId('agent-versions-summary')).toContainText(`${devices} devices in your scope`);
  const builds = count('SELECT COUNT(*) AS n FROM agent_versions');
  await expect(page.getByTestId('agent-version-row')).toHaveCount(builds);
  // A build is one version on one platform and architecture: the registered row counts the Linux x64 devices on it.
  const onRunning = count(
    "SELECT COUNT(*) AS n FROM devices WHERE agent_version = ? AND os_type = 'linux' AND architecture = 'x64' AND status <> 'decommissioned'",
    running,
  );
  await expect(
    page
      .getByTestId('agent-version-row')
      .filter({ hasText: running })
      .first()
      .getByTestId('agent-version-devices'),
  ).toHaveText(String(onRunning));
  await expect(page.getByTestId('agent-version-latest').first()).toBeVisible();
  await screen(page, '85-agent-versions');
  expect(errors).toEqual([]);
});
