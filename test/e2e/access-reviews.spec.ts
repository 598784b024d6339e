// Access reviews in the console (issue 13): a partner administrator of the demo tenant creates a review, decides
// it by mouse and keyboard (approves, revokes one technician who has the console open in a second browser),
// watches a second reviewer's decision arrive without a reload, and completes it after a confirmation that names
// the person who loses access; the revoked technician's console ends up on the sign-in page and their API calls
// are refused.
import { expect, test, type Page } from '@playwright/test';
import { screen, startServer, watchErrors, type TestServer } from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
const TECH = 'sam.ortiz@northwind.demo';
const HELPDESK = 'jordan.lee@northwind.demo';

let ts: TestServer;
let password: string;

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true' });
  password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
});

test.afterAll(async () => {
  await ts?.stop();
});

async function signIn(page: Page, email: string, greeting: string): Promise<void> {
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home-greeting')).toContainText(greeting);
}

const item = (page: Page, email: string) => page.locator(`[data-testid="ar-item"][data-email="${email}"]`);

/** The administrator's API, as another of their consoles (a second reviewer) would call it. */
async function adminApi(method: string, path: string, body: unknown): Promise<Response> {
  const login = await fetch(`${ts.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return fetch(`${ts.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(body),
  });
}

test('a partner administrator runs a review to completion; the revoked technician is signed out', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);

  // The technician works in their own browser, console open and live.
  const techContext = await browser.newContext();
  const tech = await techContext.newPage();
  await signIn(tech, TECH, 'Sam');
  await expect(tech.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live', {
    timeout: 15_000,
  });

  await signIn(page, ADMIN, 'Riley');
  await page.getByTestId('nav-access-reviews').click();
  await expect(page.getByTestId('ar-empty')).toBeVisible();

  // Create: name, description, due date, reviewer.
  await page.getByTestId('ar-empty').getByTestId('ar-create').click();
  const dialog = page.getByTestId('ar-create-dialog');
  await dialog.getByTestId('ar-name').fill('Q4 technician access');
  await dialog.getByTestId('ar-description').fill('Quarterly check of everyone at Northwind');
  await dialog.getByTestId('ar-due').fill('2030-12-31');
  await expect(dialog.getByTestId('ar-reviewer').locator('option')).toHaveCount(3);
  await screen(page, 'access-reviews-create');
  await dialog.getByTestId('ar-create-submit').click();

  // The review screen: one row per partner user, with role, last activity and permissions.
  await expect(page.getByTestId('ar-review')).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('ar-item')).toHaveCount(3);
  await expect(item(page, TECH)).toContainText('Partner Technician');
  await expect(item(page, ADMIN).getByTestId('ar-permissions')).toContainText('Everything');
  await expect(page.getByTestId('ar-keys')).toBeVisible();
  const reviewId = page.url().split('/').pop() ?? '';
  await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }));

  // Keyboard: the cursor starts on the first person (by name: Jordan); j moves to Riley; a approves her.
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(item(page, ADMIN)).toHaveAttribute('data-decision', 'approved');
  // The mouse: revoke Sam.
  await item(page, TECH).getByTestId('ar-revoke').click();
  await expect(item(page, TECH)).toHaveAttribute('data-decision', 'revoked');

  // A second reviewer approves Jordan with a note: it arrives by push, no reload.
  const helpdeskId = await item(page, HELPDESK).getAttribute('data-item-id');
  const decided = await adminApi('PATCH', `/access-reviews/${reviewId}/items/${helpdeskId ?? ''}`, {
    decision: 'approved',
    notes: 'Helpdesk rota until March',
  });
  expect(decided.status).toBe(200);
  await expect(item(page, HELPDESK)).toHaveAttribute('data-decision', 'approved');
  await expect(item(page, HELPDESK)).toContainText('note');
  await expect(page.getByTestId('ar-review')).toHaveAttribute('data-status', 'in_progress');
  expect(await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await screen(page, 'access-reviews-review');

  // Completion asks first and names who loses access.
  await page.getByTestId('ar-complete').click();
  const confirm = page.getByTestId('ar-complete-dialog');
  await expect(confirm.getByTestId('ar-loses-person')).toHaveCount(1);
  await expect(confirm.getByTestId('ar-loses-person')).toContainText('Sam Ortiz');
  await screen(page, 'access-reviews-complete');
  await confirm.getByTestId('confirm-action').click();
  await expect(page.getByTestId('ar-review')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('ar-completed')).toContainText('1 person lost access');
  await expect(page.getByTestId('ar-approve')).toHaveCount(0);

  // The technician's console is signed out: the live socket closed, the refresh was refused.
  await expect(tech).toHaveURL(`${ts.url}/login`, { timeout: 20_000 });
  await expect(tech.getByTestId('login-email')).toBeVisible();
  const again = await fetch(`${ts.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TECH, password }),
  });
  expect(again.status).not.toBe(200);

  // The list: the completed review with its progress, beside an overdue one (created by the API, an hour ago
  // due) that arrives by push.
  await page.getByTestId('page-back').click();
  const late = await adminApi('POST', '/access-reviews', {
    name: 'Break-glass accounts',
    dueDate: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(late.status).toBe(201);
  const overdue = page.locator('[data-testid="ar-row"][data-name="Break-glass accounts"]');
  await expect(overdue.getByTestId('ar-due')).toHaveAttribute('data-overdue', 'true');
  const row = page.locator('[data-testid="ar-row"][data-name="Q4 technician access"]');
  await expect(row.getByTestId('ar-status')).toHaveText('Completed');
  await expect(row.getByTestId('ar-progress')).toHaveAttribute('data-decided', '3');
  await screen(page, 'access-reviews-list');
  expect(errors).toEqual([]);
  await techContext.close();
});
