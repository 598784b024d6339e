// The Overview as an operations dashboard (issue 16): on the demo with simulated agents, a technician's tiles show
// the numbers the lists hold, a new elevation request raised by a simulated agent moves the pending tile without
// a reload, and a tile opens its filtered list. Screenshots at 1280x800 and 1920x1080.
import { expect, test, type Page } from '@playwright/test';
import { demoSimulator } from '../../server/modules/demo/simulator';
import { apiJson, MfaTechnician, screen, startServer, type TestServer, watchErrors } from './fixtures';

const AGENTS = 6;
const TECH = 'sam.ortiz@northwind.demo';

let ts: TestServer;
let person: MfaTechnician;
let token = '';

test.describe.configure({ mode: 'serial' });

const simulator = () => demoSimulator(ts.server.context);

/** How many items a list endpoint holds for the technician (its pagination total). */
async function listTotal(path: string): Promise<number> {
  const page = await apiJson(ts, 'GET', path, undefined, token);
  return (page.pagination as { total: number }).total;
}

const tileValue = (page: Page, testId: string) =>
  page.getByTestId(`${testId}-value`).getAttribute('data-value').then(Number);

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: String(AGENTS), AGENT_HEARTBEAT_SECONDS: '2' });
  const password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  await expect
    .poll(() => simulator().status().connected, { timeout: 30_000, message: 'the simulated agents connect' })
    .toBe(AGENTS);
  person = new MfaTechnician(ts, TECH, password);
  await person.enrollTotp();
  token = await person.apiToken();
  // Work waiting: two requests an agent raised.
  for (const kind of ['unsigned_tool', 'admin_console'] as const) {
    const raised = await simulator().raiseElevation({ kind });
    expect(raised.status).toBe('pending');
  }
});

test.afterAll(async () => {
  await ts?.stop();
});

test('the tiles show what the lists hold, and a new request arrives live', async ({ page }) => {
  const errors = watchErrors(page);
  await person.signIn(page, 'Sam');
  const overview = page.getByTestId('overview');
  await expect(overview).toBeVisible();
  // The partner by name, never its id.
  await expect(page.getByTestId('home-tenant')).toContainText('Northwind');

  const pending = await listTotal('/pam/elevation-requests?status=pending&limit=1');
  expect(pending).toBeGreaterThanOrEqual(2);
  await expect.poll(() => tileValue(page, 'ov-pending')).toBe(pending);
  const online = await listTotal('/devices?status=online&limit=1');
  await expect(page.getByTestId('ov-online')).toContainText(`${online} online`);
  await expect
    .poll(() => tileValue(page, 'ov-offline'))
    .toBe(await listTotal('/devices?status=offline&limit=1'));
  // The charts drew on their canvases.
  await expect(page.getByTestId('ov-presence-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('ov-elevations-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('ov-mix-pending')).toHaveAttribute('data-count', String(pending));
  await expect(page.getByTestId('ov-audit-row').first()).toBeVisible();
  await screen(page, '90-overview-1280');

  // A simulated agent raises one more: the tile moves without a reload.
  const marker = await page.evaluate(() => {
    (globalThis as unknown as { __overviewMarker: number }).__overviewMarker = 1;
    return 1;
  });
  const raised = await simulator().raiseElevation({ kind: 'signed_installer' });
  expect(raised.status).toBe('pending');
  await expect.poll(() => tileValue(page, 'ov-pending'), { timeout: 10_000 }).toBe(pending + 1);
  expect(
    await page.evaluate(() => (globalThis as unknown as { __overviewMarker?: number }).__overviewMarker),
  ).toBe(marker);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.mouse.move(1200, 560);
  await screen(page, '91-overview-1920');
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(errors).toEqual([]);
});

test('a tile opens its filtered list', async ({ page }) => {
  const errors = watchErrors(page);
  await person.signIn(page, 'Sam');
  await expect(page.getByTestId('overview')).toBeVisible();

  // Pending by risk: the risk of the request just raised opens the inbox for that risk.
  const risky = page.locator('[data-testid^="ov-pending-"][data-count]:not([data-count="0"])').first();
  const risk = ((await risky.getAttribute('data-testid')) ?? '').replace('ov-pending-', '');
  await risky.click();
  await expect(page).toHaveURL(new RegExp(`/approvals\\?risk=${risk}$`));
  await expect(page.getByTestId('approvals-inbox')).toBeVisible();

  await page.goBack();
  await page.getByTestId('ov-offline-link').click();
  await expect(page).toHaveURL(/\/devices\?status=offline$/);

  await page.goBack();
  await page.getByTestId('ov-grants-link').click();
  await expect(page).toHaveURL(/\/approvals\/active$/);

  await page.goBack();
  await page.getByTestId('ov-audit-link').click();
  await expect(page).toHaveURL(/\/audit$/);

  // The session diagnostics are folded at the foot, still one click away.
  await page.goBack();
  const session = page.getByTestId('home-session');
  // Folded, they are still on the page for what reads them (the console spec checks the MFA state and version).
  await expect(page.getByTestId('home-mfa-status')).toContainText('Enabled');
  await expect(page.getByTestId('server-version')).toHaveText(/^v\d/);
  await session.locator('summary').click();
  await expect(page.getByTestId('home-user-name')).toHaveText(/Sam/);
  await expect(page.getByTestId('session-expiry')).toContainText('expires in');
  await session.scrollIntoViewIfNeeded();
  await screen(page, '92-overview-session-open');
  expect(errors).toEqual([]);
});

test("the audit reports draw their per-day charts on the kit's BarChart", async ({ page }) => {
  const errors = watchErrors(page);
  await person.signIn(page, 'Sam');
  await page.goto(`${ts.url}/audit/reports`);
  // (The security chart shows once there are sign-ins or permission changes; this demo has none yet.)
  for (const id of ['chart-events-per-day', 'chart-compliance-per-day']) {
    await expect(page.getByTestId(id).locator('canvas')).toBeVisible();
    await expect(page.getByTestId(id)).toHaveAttribute('aria-label', /per day/);
  }
  // Hovering a day's column says its numbers.
  const chart = page.getByTestId('chart-events-per-day');
  const box = await chart.locator('canvas').boundingBox();
  expect(box).not.toBeNull();
  if (box) await page.mouse.move(box.x + box.width - 30, box.y + box.height / 2);
  await expect(chart.locator('.ui-plot-tip')).toContainText('Success');
  await screen(page, '93-audit-reports-charts');
  expect(errors).toEqual([]);
});
