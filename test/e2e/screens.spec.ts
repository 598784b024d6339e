// Every screen at two sizes (issue 16, "every screen looked at in a real browser at 1280x800 and 1920x1080"): on
// a demo server with a small simulated fleet, the demo partner administrator visits every section of the route
// table (renderer/src/app/routes.ts) and the public pages that need no emailed token, once per size, in one
// browser context per size. Each page must show its heading and no error state (no load error, no "not found",
// no placeholder, no console error); a section the partner administrator is not offered is visited by the
// platform administrator. Each page is saved as test-results/screens/<page>-<width>.png for review.
//
// The route list is read from the route table's source, so a section added there is visited here without a
// change. Left out: the pages that only an emailed link opens (setup, verify-email, accept-invite,
// reset-password: without their token they show the invalid-link state by design) and MFA enrollment (it is the
// first-sign-in step, covered by console.spec.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { MfaTechnician, SCREENS_DIR, startServer, watchErrors, type TestServer } from './fixtures';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const PARTNER_ADMIN = 'riley.chen@northwind.demo';
/** Public pages that open without a token from an email. */
const PUBLIC_PAGES = ['/login', '/register', '/forgot-password'];

interface Route {
  id: string;
  path: string;
}

/** The sections of the route table, in its order, read from its source (the module itself needs a bundler). */
function sections(): Route[] {
  const source = readFileSync(join('renderer', 'src', 'app', 'routes.ts'), 'utf8');
  const table = source.slice(
    source.indexOf('export const SECTIONS'),
    source.indexOf('export const BARE_ROUTES'),
  );
  const routes = [...table.matchAll(/\{\s*id: '([^']+)',[\s\S]*?\bpath: '([^']+)'/g)].map((m) => ({
    id: m[1]!,
    path: m[2]!,
  }));
  expect(routes.length, 'sections parsed from routes.ts').toBeGreaterThan(10);
  return routes;
}

let ts: TestServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({
    SEED_DEMO: 'true',
    DEMO_AGENTS: '6',
    DEMO_SCENARIO: 'pam',
    AGENT_HEARTBEAT_SECONDS: '2',
  });
  mkdirSync(SCREENS_DIR, { recursive: true });
  // The pages have something to show: devices that reported, and an elevation request in the inbox.
  await expect
    .poll(
      () =>
        (ts.server.context.db.prepare('SELECT COUNT(*) AS n FROM elevation_requests').get() as { n: number })
          .n,
      { timeout: 45_000, message: 'the simulated agents enroll and raise a request' },
    )
    .toBeGreaterThan(0);
});

test.afterAll(async () => {
  await ts?.stop();
});

/** A settled page: its heading shown, nothing still loading, no error state. */
async function settled(page: Page, what: string): Promise<void> {
  await expect(page.locator('h1').first(), `${what}: heading`).toBeVisible();
  await expect(page.locator('h1').first(), `${what}: heading text`).not.toBeEmpty();
  await expect(page.getByTestId('loading'), `${what}: still loading`).toHaveCount(0);
  for (const state of ['load-error', 'not-found', 'section-placeholder'])
    await expect(page.getByTestId(state), `${what}: ${state}`).toHaveCount(0);
}

async function shoot(page: Page, name: string, width: number): Promise<void> {
  await page.screenshot({ path: join(SCREENS_DIR, `${name}-${width}.png`), fullPage: true });
}

/** Visits each route by its nav entry (as a technician would) or, when not offered, by its address. */
async function visitAll(page: Page, routes: Route[], width: number): Promise<void> {
  for (const route of routes) {
    const nav = page.getByTestId(`nav-${route.id}`);
    if ((await nav.count()) > 0) await nav.click();
    else await page.goto(`${ts.url}${route.path}`);
    await expect(page).toHaveURL(new RegExp(`${route.path === '/' ? '/$' : route.path}`));
    await settled(page, `${route.id} at ${width}`);
    await shoot(page, route.id, width);
  }
}

/** The sections this signed-in user's navigation offers. */
async function offered(page: Page, routes: Route[]): Promise<Route[]> {
  const shown: Route[] = [];
  for (const route of routes)
    if ((await page.getByTestId(`nav-${route.id}`).count()) > 0 || route.id === 'profile') shown.push(route);
  return shown;
}

async function everyScreen(browser: Browser, size: (typeof SIZES)[number], platform: MfaTechnician) {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const routes = sections();

  for (const path of PUBLIC_PAGES) {
    await page.goto(`${ts.url}${path}`);
    await settled(page, `${path} at ${size.width}`);
    await shoot(page, path.slice(1), size.width);
  }

  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(PARTNER_ADMIN);
  await page.getByTestId('login-password').fill(ts.server.demo!.password ?? '');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home-greeting')).toContainText('Riley');
  const partnerRoutes = await offered(page, routes);
  await visitAll(page, partnerRoutes, size.width);

  // What the partner administrator is not offered, the platform administrator is (or the page explains why not).
  const rest = routes.filter((r) => !partnerRoutes.includes(r));
  if (rest.length > 0) {
    await context.clearCookies();
    await platform.signIn(page, 'Platform');
    await visitAll(page, rest, size.width);
  }
  expect(errors, `console errors at ${size.width}`).toEqual([]);
  await context.close();
}

test('every screen of the route table at 1280x800 and 1920x1080 shows its heading and no error', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const demo = ts.server.demo!;
  expect(demo.platformAdmin, 'the demo created a platform administrator').not.toBeNull();
  const platform = new MfaTechnician(ts, demo.platformAdmin!.email, demo.platformAdmin!.password);
  await platform.enrollTotp();
  for (const size of SIZES) await everyScreen(browser, size, platform);
});
