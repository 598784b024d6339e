// The console in chunks (issue 18): the sign-in page fetches the shell, the vendor chunks and the sign-in chunk,
// not the pages behind it; a page opened later fetches its own chunk, with the loading frame shown meanwhile; a
// chunk that cannot be fetched (the server was updated or stopped) gets a page that says so and reloads.
import { expect, test, type Page } from '@playwright/test';
import { MfaTechnician, screen, startServer, watchErrors, type TestServer } from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
let ts: TestServer;
let admin: MfaTechnician;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true' });
  admin = new MfaTechnician(ts, ADMIN, ts.server.demo?.password ?? '');
  await admin.enrollTotp();
});

test.afterAll(async () => {
  await ts?.stop();
});

/** The console script chunks the page fetches from now on, by name without the hash (`auth`, `audit`). */
function scriptChunks(page: Page): string[] {
  const chunks: string[] = [];
  page.on('request', (req) => {
    // The hash Vite appends is eight characters of [A-Za-z0-9_-].
    const match = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(req.url()).pathname);
    if (match?.[1]) chunks.push(match[1]);
  });
  return chunks;
}

test('the sign-in page loads the shell and the sign-in chunk, not the pages behind it', async ({ page }) => {
  const errors = watchErrors(page);
  const chunks = scriptChunks(page);
  await page.goto(`${ts.url}/login`);
  await expect(page.getByTestId('login-email')).toBeVisible();
  expect(chunks).toEqual(expect.arrayContaining(['index', 'vendor-react-dom', 'vendor', 'auth']));
  for (const page of ['devices', 'approvals', 'pam-policy', 'audit', 'imports', 'webhooks'])
    expect(chunks, `the sign-in page fetched the ${page} chunk`).not.toContain(page);
  expect(errors).toEqual([]);
});

test('a page fetches its chunk when first opened, in the loading frame; a chunk that fails offers a reload', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await admin.signIn(page, 'Riley');
  const chunks = scriptChunks(page);

  // Held back a moment, so the loading frame is there to see.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/audit-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('nav-audit').click();
  await expect(page.getByTestId('page-loading')).toBeVisible();
  await expect(page.getByTestId('page-title')).toHaveText('Audit');
  await screen(page, 'page-loading');
  release();
  await expect(page.getByTestId('audit-page')).toBeVisible();
  expect(chunks).toContain('audit');

  // The webhooks chunk cannot be fetched, as after a server update renamed it.
  await page.route(/\/assets\/webhooks-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
  await page.getByTestId('nav-webhooks').click();
  await expect(page.getByTestId('page-load-failed')).toContainText('This page could not be loaded');
  await screen(page, 'page-load-failed');
  await page.unroute(/\/assets\/webhooks-[\w-]+\.js$/);
  await page.getByTestId('page-load-failed').getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByTestId('page-load-failed')).toHaveCount(0);
  await expect(page.getByTestId('page-title')).toHaveText('Webhooks');
  // The failed fetch is the only error the page saw (the browser logs it; nothing was thrown).
  expect(errors).toEqual([]);
});
