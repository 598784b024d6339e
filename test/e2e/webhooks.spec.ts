// Webhooks in the console (issue 12): a partner administrator creates a webhook against a real local HTTPS
// receiver (its address first refused by the server, shown under the field), stores the secret shown once,
// sends a test delivery and watches it arrive delivered in the log without a reload (a console push patching
// the query cache); then the receiver fails, a delivery with no retries fails at once, is retried by hand and
// is delivered. The receiver checks every signature with the secret the console showed.
import { expect, test, type Page } from '@playwright/test';
import {
  createTestCa,
  signatureValid,
  startReceiver,
  type Receiver,
  type TestCa,
} from '../support/webhook-receiver';
import { MfaTechnician, screen, startServer, watchErrors, type TestServer } from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
const ORG = 'Contoso Dental';
const NAME = 'Lab receiver';

/** The console's server (demo tenant) and the local HTTPS receiver its webhooks reach. */
interface World {
  ts: TestServer;
  ca: TestCa;
  receiver: Receiver;
}

let world: World;
let person: MfaTechnician;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const ca = createTestCa();
  const receiver = await startReceiver(ca);
  // The server runs inside the Playwright process, where NODE_EXTRA_CA_CERTS can no longer take effect, so the
  // receiver's throwaway CA goes to the webhooks `ca` option (as in test/support/webhook-world.ts), and
  // WEBHOOK_ALLOW_PRIVATE_TARGETS lets webhooks reach the loopback receiver. A short poll picks up a retry
  // scheduled by the clock promptly; new work wakes the dispatcher anyway.
  const ts = await startServer(
    { SEED_DEMO: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    { webhooks: { ca: ca.caPem, pollIntervalMs: 100 } },
  );
  world = { ts, ca, receiver };
  const password = world.ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  // Webhook writes need an MFA session: the technician enrolls TOTP once, then signs in with a fresh code.
  person = new MfaTechnician(world.ts, ADMIN, password);
  await person.enrollTotp();
});

test.afterAll(async () => {
  await world?.ts.stop();
  await world?.receiver.close();
  world?.ca.dispose();
});

/** The delivery rows of the log, newest first. */
const rows = (page: Page) => page.getByTestId('delivery-row');

test('create a webhook, watch a test delivery arrive live, retry a failed one by hand', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const { receiver } = world;
  await person.signIn(page, 'Riley');

  // The list: the demo's paused example webhook, with its organization named (a partner sees several).
  await page.goto(`${world.ts.url}/webhooks`);
  const example = page.locator('[data-testid="webhook-row"][data-name="Example: PSA ticketing"]');
  await expect(example).toBeVisible();
  await expect(example.getByTestId('webhook-status')).toHaveText('paused');

  // Create: the server refuses an address no webhook may reach, and says so under the URL field.
  await page.getByTestId('webhook-create').click();
  const dialog = page.getByTestId('webhook-form-dialog');
  await dialog.getByTestId('webhook-org').selectOption({ label: ORG });
  await dialog.getByTestId('webhook-name').fill(NAME);
  await dialog.getByTestId('webhook-url').fill('https://0.0.0.0/gatehouse');
  await dialog.getByTestId('webhook-event-group-privileged-access').check();
  await dialog.getByTestId('webhook-event-device.offline').check();
  await dialog.getByTestId('webhook-header-add').click();
  await dialog.getByTestId('webhook-header-key-0').fill('X-Lab');
  await dialog.getByTestId('webhook-header-value-0').fill('bench-3');
  // No retries: a failed attempt fails the delivery at once, so the manual retry is reachable without waiting.
  await dialog.getByText('Own retry policy').click();
  await dialog.getByTestId('webhook-retry-maxRetries').fill('0');
  await expect(dialog.getByTestId('webhook-retry-schedule')).toContainText('fails the delivery at once');
  await dialog.getByTestId('webhook-form-submit').click();
  await expect(dialog.locator('#webhook-url-error')).toContainText('Invalid webhook URL');
  await dialog.evaluate((el) => el.scrollTo(0, 0));
  await screen(page, 'webhooks-dialog');

  await dialog.getByTestId('webhook-url').fill(`${receiver.url}/gatehouse`);
  await dialog.getByTestId('webhook-form-submit').click();

  // The signing secret, shown once.
  const secret = (await page.getByTestId('signing-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
  await page.getByTestId('signing-done').click();
  await expect(page.getByTestId('webhook-detail')).toBeVisible();
  await expect(page.getByTestId('deliveries-empty')).toBeVisible();
  await expect(page.getByTestId('webhook-signing')).toContainText('Signed');
  // From here on the page is never reloaded: everything below arrives by push.
  await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }));

  // A test delivery with a chosen event reaches the receiver, signed, and shows up delivered in the log.
  await page.getByTestId('webhook-send-test').click();
  await page.getByTestId('webhook-test-event').selectOption('elevation.approved');
  await page.getByTestId('webhook-test-submit').click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute('data-status', 'delivered');
  await expect(rows(page).first()).toHaveAttribute('data-event', 'elevation.approved');
  expect(receiver.requests).toHaveLength(1);
  const first = receiver.requests[0];
  expect(first?.headers['x-service-event-type']).toBe('elevation.approved');
  expect(first?.headers['x-lab']).toBe('bench-3');
  expect(first && signatureValid(first, secret)).toBe(true);
  await screen(page, 'webhooks-detail');

  // The receiver goes down: the next test delivery fails at once (no retries) and says why.
  receiver.reply = () => ({
    status: 503,
    headers: { 'Retry-After': '120' },
    body: '{"error":"receiver is down for maintenance"}',
  });
  await page.getByTestId('webhook-send-test').click();
  await page.getByTestId('webhook-test-submit').click();
  await expect(rows(page)).toHaveCount(2);
  const failed = rows(page).first();
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('webhook-stat-failed')).toHaveText('1 failed');
  await failed.getByTestId('delivery-open').click();
  const detail = page.getByTestId('delivery-detail');
  await expect(detail.getByTestId('delivery-response-status')).toHaveText('503');
  await expect(detail.getByTestId('delivery-response-body')).toContainText(
    'receiver is down for maintenance',
  );
  await expect(detail.getByTestId('delivery-request-headers')).toContainText('X-Lab: bench-3');
  // The headers shown are the ones the attempt sent (its signature as the receiver got it) and got back.
  const sentSignature = String(receiver.requests[1]?.headers['x-service-signature']);
  await expect(detail.getByTestId('delivery-request-headers')).toContainText(
    `X-Service-Signature: ${sentSignature}`,
  );
  await expect(detail.getByTestId('delivery-response-headers')).toContainText('retry-after: 120');

  // Back up: the failed delivery retried by hand is a new delivery of the same event, delivered.
  receiver.reply = () => ({ status: 200, body: 'ok' });
  await failed.getByTestId('delivery-retry').click();
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).first()).toHaveAttribute('data-status', 'delivered');
  await expect(rows(page).first()).toHaveAttribute('data-event', 'webhook.test');
  await expect(rows(page).nth(1)).toHaveAttribute('data-status', 'failed');
  expect(receiver.requests).toHaveLength(3);
  const retried = receiver.requests[2];
  expect(retried && signatureValid(retried, secret)).toBe(true);
  // The retry resends the same event (receivers dedupe by its id).
  expect(retried?.headers['x-service-event-id']).toBe(receiver.requests[1]?.headers['x-service-event-id']);
  await expect(page.getByTestId('webhook-stat-total')).toHaveText('3');
  expect(await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await page.getByTestId('webhook-stats').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await screen(page, 'webhooks-delivery-log');

  // Rotate: a new secret made in the browser, shown once; the next delivery is signed with it, not the old one.
  // The menu closes on any page scroll (it is positioned against the page); the screenshot above scrolled, and a
  // scroll still settling may close it as it opens: open it again until its item can be pressed.
  await expect(async () => {
    if (!(await page.getByTestId('webhook-rotate').isVisible()))
      await page.getByTestId('webhook-more').click();
    await page.getByTestId('webhook-rotate').click({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await page.getByTestId('webhook-rotate-dialog').getByTestId('confirm-action').click();
  const rotated = (await page.getByTestId('signing-secret').textContent())?.trim() ?? '';
  expect(rotated).toMatch(/^whsec_[0-9a-f]{64}$/);
  expect(rotated).not.toBe(secret);
  await page.getByTestId('signing-done').click();
  await page.getByTestId('webhook-send-test').click();
  await page.getByTestId('webhook-test-submit').click();
  await expect(rows(page)).toHaveCount(4);
  await expect(rows(page).first()).toHaveAttribute('data-status', 'delivered');
  const afterRotation = receiver.requests[3];
  expect(afterRotation && signatureValid(afterRotation, rotated)).toBe(true);
  expect(afterRotation && signatureValid(afterRotation, secret)).toBe(false);

  // Edit: the name changes, the rest stays.
  await page.getByTestId('webhook-edit').click();
  const edit = page.getByTestId('webhook-form-dialog');
  await expect(edit.getByTestId('webhook-event-elevation.denied')).toBeChecked();
  await edit.getByTestId('webhook-name').fill(`${NAME} (bench 3)`);
  await edit.getByTestId('webhook-form-submit').click();
  await expect(page.locator('h1')).toContainText(`${NAME} (bench 3)`);

  // The list shows its health: 3 of 4 finished deliveries arrived, and the latest outcomes as a sparkline.
  await page.getByTestId('page-back').click();
  const row = page.locator(`[data-testid="webhook-row"][data-name="${NAME} (bench 3)"]`);
  await expect(row.getByTestId('webhook-success-rate')).toContainText('75%');
  await expect(row.getByTestId('webhook-sparkline').locator('[data-tone]')).toHaveCount(4);
  await expect(row.getByTestId('webhook-sparkline').locator('[data-tone="bad"]')).toHaveCount(1);

  // Pause from the list: the row says so, and a paused webhook receives nothing.
  // The switch's box is drawn over the real checkbox: click it as a person would.
  await row.locator('label.ui-row-switch').click();
  await expect(row.getByTestId('webhook-active-switch')).not.toBeChecked();
  await expect(row.getByTestId('webhook-status')).toHaveText('paused');
  await screen(page, 'webhooks-list');

  expect(errors).toEqual([]);
});

test('an organization read-only user reads webhooks but is offered no changes', async ({ page }) => {
  const errors = watchErrors(page);
  const password = world.ts.server.demo?.password ?? '';
  const reader = new MfaTechnician(world.ts, 'morgan.blake@fabrikam.demo', password);
  await reader.enrollTotp();
  await reader.signIn(page, 'Morgan');
  await page.goto(`${world.ts.url}/webhooks`);
  await expect(page.getByTestId('webhooks-read-only')).toContainText('organizations:write');
  // Fabrikam has no webhooks; its own organization is implied, so there is nothing to create and no org column.
  await expect(page.getByTestId('webhooks-empty')).toBeVisible();
  await expect(page.getByTestId('webhook-create')).toHaveCount(0);
  expect(errors).toEqual([]);
});
