// The console end to end against a real server: first-run setup, TOTP enrollment, recovery codes, the live
// connection, sign-out, and sign-in with a second factor. Screens land in test-results/screens/ for review.
import { expect, test, type APIRequestContext, type Page, type WebSocketRoute } from '@playwright/test';
import { freshTotp, screen, startServer, type TestServer } from './fixtures';

const ADMIN = {
  name: 'Ada Lindqvist',
  email: 'ada.lindqvist@gatehouse.test',
  password: 'correct-horse-battery-staple',
};

let ts: TestServer;
/** The last 30-s TOTP step whose code the server accepted. */
let lastTotpStep = -1;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer();
});

test.afterAll(async () => {
  await ts?.stop();
});

/** Fail on uncaught page errors: a console that throws is broken even when the screen looks fine. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** Make sure the administrator exists (lets the second test run alone with -g). */
async function ensureAdmin(request: APIRequestContext): Promise<void> {
  const status = await request.get(`${ts.url}/api/v1/setup/status`);
  const { setupRequired } = (await status.json()) as { setupRequired: boolean };
  if (!setupRequired) return;
  const res = await request.post(`${ts.url}/api/v1/setup`, {
    data: { setupToken: ts.server.setupToken, ...ADMIN },
  });
  expect(res.status()).toBe(201);
}

test('first run: setup, TOTP enrollment, live console, sign out, sign in with MFA', async ({
  page,
  request,
}) => {
  const errors = watchErrors(page);
  const setupToken = ts.server.setupToken;
  expect(setupToken, 'a fresh server prints a setup token').toBeTruthy();

  const health = (await (await request.get(`${ts.url}/api/v1/health`)).json()) as { version: string };

  // Pass the console's live sockets through, so the test can drop one and watch the console reconnect.
  const liveSockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/v1\/ws\?ticket=/, (ws) => {
    liveSockets.push(ws);
    ws.connectToServer();
  });

  // A deep link on a fresh install goes to the setup page.
  await page.goto(`${ts.url}/devices`);
  await expect(page).toHaveURL(`${ts.url}/setup`);

  // Setup: the token comes from the URL fragment.
  await page.goto(`${ts.url}/setup#token=${encodeURIComponent(setupToken ?? '')}`);
  await expect(page.getByTestId('setup-token')).toHaveValue(setupToken ?? '');
  await page.getByTestId('setup-name').fill(ADMIN.name);
  await page.getByTestId('setup-email').fill(ADMIN.email);
  await page.getByTestId('setup-password').fill('too-short');
  await page.getByTestId('setup-password-confirm').fill('too-short');
  await page.getByTestId('setup-submit').click();
  await expect(page.getByText(/Use at least 12 characters/)).toBeVisible();
  await page.getByTestId('setup-password').fill(ADMIN.password);
  await page.getByTestId('setup-password-confirm').fill(ADMIN.password);
  await screen(page, '01-setup');
  await page.getByTestId('setup-submit').click();

  // TOTP enrollment.
  await expect(page).toHaveURL(/\/mfa\/enroll/);
  await expect(page.getByTestId('mfa-qr')).toBeVisible();
  const secretText = await page.getByTestId('mfa-secret').textContent();
  const secret = (secretText ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await screen(page, '02-mfa-enroll');
  const enrollCode = await freshTotp(secret);
  await page.getByTestId('mfa-enroll-code').fill(enrollCode.code);
  await page.getByTestId('mfa-enroll-submit').click();
  lastTotpStep = enrollCode.step;

  // Recovery codes, shown once.
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  expect(await page.getByTestId('recovery-code').count()).toBeGreaterThanOrEqual(8);
  await expect(page.getByTestId('recovery-codes-continue')).toBeDisabled();
  await screen(page, '03-recovery-codes');
  const download = page.waitForEvent('download');
  await page.getByTestId('recovery-codes-download').click();
  expect((await download).suggestedFilename()).toBe('gatehouse-recovery-codes.txt');
  await page.getByTestId('recovery-codes-saved').check();
  await page.getByTestId('recovery-codes-continue').click();

  // Home: identity, MFA state, server version, live connection.
  await expect(page).toHaveURL(`${ts.url}/`);
  await expect(page.getByTestId('user-name')).toHaveText(ADMIN.name);
  await expect(page.getByTestId('user-email')).toHaveText(ADMIN.email);
  await expect(page.getByTestId('user-scope')).toHaveText(/system/i);
  await expect(page.getByTestId('home-mfa-status')).toContainText('Enabled');
  await expect(page.getByTestId('home-session-mfa')).toContainText('MFA verified');
  await expect(page.getByTestId('server-version')).toHaveText(`v${health.version}`);
  const indicator = page.getByTestId('connection-indicator');
  await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(indicator).toHaveText('Live');
  await screen(page, '04-home');

  // The live connection drops: the console reconnects with a fresh ticket and backoff, and is live again.
  const socketsBefore = liveSockets.length;
  await liveSockets.at(-1)?.close({ code: 4000, reason: 'dropped by the test' });
  await expect.poll(() => liveSockets.length, { timeout: 15_000 }).toBeGreaterThan(socketsBefore);
  await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });

  // Profile.
  await page.getByTestId('nav-profile').click();
  await expect(page).toHaveURL(`${ts.url}/profile`);
  await expect(page.getByTestId('profile-mfa-status')).toContainText('Enabled');
  await screen(page, '05-profile');

  // A section that does not apply to the platform says so plainly: access reviews run inside a tenant.
  await page.getByTestId('nav-access-reviews').click();
  await expect(page.getByTestId('ar-platform')).toContainText('run inside a partner or an organization');
  await screen(page, '06-section-platform-notice');

  // A reload restores the session from the refresh cookie.
  await page.reload();
  await expect(page.getByTestId('user-name')).toHaveText(ADMIN.name);
  await expect(page.getByTestId('ar-platform')).toBeVisible();
  await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });

  // Sign out.
  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(`${ts.url}/login`);
  await expect(page.getByTestId('login-email')).toBeVisible();
  await screen(page, '07-login');

  // Signed out, a protected page sends the user to sign in, and the old session is gone for good.
  await page.goto(`${ts.url}/profile`);
  await expect(page).toHaveURL(`${ts.url}/login`);

  // Sign in with password, then a fresh TOTP code (not the one used to enable: the server rejects replays).
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('mfa-code')).toBeVisible();
  await screen(page, '08-login-mfa');
  const loginCode = await freshTotp(secret, { after: lastTotpStep });
  await page.getByTestId('mfa-code').fill(loginCode.code);
  await page.getByTestId('mfa-submit').click();
  lastTotpStep = loginCode.step;

  // Back where the guard sent us from, signed in and live.
  await expect(page).toHaveURL(`${ts.url}/profile`);
  await expect(page.getByTestId('user-name')).toHaveText(ADMIN.name);
  await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });

  // With an MFA-verified session, recovery codes can be regenerated.
  await page.getByTestId('profile-regenerate-codes').click();
  await page.getByTestId('profile-regenerate-confirm').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  await screen(page, '09-profile-new-codes');

  // While the server refuses live tickets the indicator says offline; clicking it retries at once.
  await page.route('**/api/v1/ws/ticket', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Hub is restarting"}' }),
  );
  await liveSockets.at(-1)?.close({ code: 4000, reason: 'dropped by the test' });
  await expect(indicator).toHaveAttribute('data-state', 'offline');
  await expect(indicator).toHaveText(/Offline/);
  await screen(page, '10-offline-indicator');
  await page.unroute('**/api/v1/ws/ticket');
  await indicator.click();
  await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });

  // An access token the server rejects is refreshed silently (cookie + CSRF header) and the call retried once.
  let meCalls = 0;
  await page.route('**/api/v1/auth/me', async (route) => {
    meCalls += 1;
    if (meCalls === 1) {
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: '{"error":"Token expired"}',
      });
    } else {
      await route.continue();
    }
  });
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'));
  await page.getByTestId('nav-home').click();
  expect((await refreshed).status()).toBe(200);
  await expect.poll(() => meCalls).toBe(2);
  await expect(page.getByTestId('home-user-name')).toHaveText(ADMIN.name);
  await page.unroute('**/api/v1/auth/me');

  // When the refresh is refused too, the console signs out and says why.
  await page.route('**/api/v1/auth/me', (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Token expired"}' }),
  );
  await page.route('**/api/v1/auth/refresh', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: '{"error":"Invalid refresh token"}',
    }),
  );
  await page.getByTestId('nav-profile').click();
  await expect(page).toHaveURL(`${ts.url}/login`);
  await expect(page.getByTestId('login-notice')).toContainText('session ended');
  await expect(indicator).toHaveCount(0);
  await page.unrouteAll();

  expect(errors, 'uncaught errors in the page').toEqual([]);
});

test('a wrong password is shown inline on the sign-in page', async ({ page, request }) => {
  const errors = watchErrors(page);
  await ensureAdmin(request);
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('Invalid email or password');
  await expect(page).toHaveURL(`${ts.url}/login`);
  await expect(page.getByTestId('mfa-code')).toHaveCount(0);
  await screen(page, '11-login-error');
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

test('a server that cannot be reached at load gets a retry screen, not a blank page', async ({ page }) => {
  const errors = watchErrors(page);
  await ensureAdmin(page.request);
  await page.route('**/api/v1/setup/status', (route) => route.abort('connectionrefused'));
  await page.goto(`${ts.url}/login`);
  await expect(page.getByTestId('unreachable')).toBeVisible();
  await screen(page, '12-unreachable');
  await page.unroute('**/api/v1/setup/status');
  await page.getByTestId('unreachable-retry').click();
  await expect(page.getByTestId('login-email')).toBeVisible();
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
