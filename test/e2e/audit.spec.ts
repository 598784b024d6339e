// The audit console (issue 13): an auditor, a partner user whose role holds only audit read and export (and the
// organizations it reads), filters the log down to one change, opens it in the drawer and reads its before and
// after, exports the filtered log as CSV (the file holds exactly those rows), reads the reports, and verifies
// an organization's chain: intact, then, after a row is edited in the SQLite file behind the server's back,
// reported with that row. An organization read-only user reads the log but is offered no export.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { apiJson, MfaTechnician, screen, startServer, watchErrors, type TestServer } from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
const AUDITOR = 'sam.ortiz@northwind.demo';
const ORG = 'Contoso Dental';
const ORG_ADMIN = 'priya.natarajan@contoso.demo';

let ts: TestServer;
let auditor: MfaTechnician;
let contosoId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true' });
  const password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  // The partner administrator makes an Auditor role (audit read and export, and the organizations to read)
  // and gives it to a technician, then changes Contoso's retention: an entry with a before and an after.
  const admin = new MfaTechnician(ts, ADMIN, password);
  await admin.enrollTotp();
  const token = await admin.apiToken();
  const role = await apiJson(
    ts,
    'POST',
    '/roles',
    {
      name: 'Auditor',
      description: 'Reads and exports the audit log; changes nothing',
      permissions: [
        { resource: 'audit', action: 'read' },
        { resource: 'audit', action: 'export' },
        { resource: 'organizations', action: 'view' },
      ],
    },
    token,
  );
  const users = (await apiJson(ts, 'GET', `/users?q=${encodeURIComponent(AUDITOR)}`, undefined, token))
    .data as Array<{ id: string; email: string }>;
  const sam = users.find((u) => u.email === AUDITOR);
  expect(sam).toBeDefined();
  await apiJson(ts, 'POST', `/users/${sam?.id}/role`, { roleId: role.id }, token);
  const orgs = (await apiJson(ts, 'GET', '/orgs/', undefined, token)).data as Array<{
    id: string;
    name: string;
  }>;
  contosoId = orgs.find((o) => o.name === ORG)?.id ?? '';
  expect(contosoId).not.toBe('');
  // Contoso's own administrator signs in, once with a wrong password: authentication entries in its chain.
  await fetch(`${ts.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ORG_ADMIN, password: 'not-the-password' }),
  });
  await apiJson(ts, 'POST', '/auth/login', { email: ORG_ADMIN, password });
  await apiJson(ts, 'PUT', `/audit/retention?orgId=${contosoId}`, { retentionDays: 180 }, token);

  auditor = new MfaTechnician(ts, AUDITOR, password);
  await auditor.enrollTotp();
});

test.afterAll(async () => {
  await ts?.stop();
});

const rows = (page: Page) => page.getByTestId('audit-row');

test('an auditor filters the log, opens an entry, exports CSV and verifies a chain', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await auditor.signIn(page, 'Sam');
  await page.getByTestId('nav-audit').click();
  await expect(page.getByTestId('audit-page')).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  // Newest first: the retention change is the last thing recorded in the organizations. (Partner users' sign-ins
  // are on the partner's own chain, which an auditor who does not administer users does not read.)
  await expect(rows(page).first()).toHaveAttribute('data-action', 'audit.retention.update');
  await expect(page.locator('[data-testid="audit-row"][data-result="failure"]')).toHaveCount(1);
  await screen(page, 'audit-log');

  // The keyboard: a clicked row opens the drawer, down arrow shows the next entry in it, Escape closes it.
  await rows(page).first().click();
  const action = page.getByTestId('audit-drawer').getByTestId('audit-action');
  await expect(action).toHaveText('audit.retention.update');
  await page.keyboard.press('ArrowDown');
  await expect(action).toHaveText('user.login');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('audit-drawer')).toHaveCount(0);

  // Filter down to the administrator's retention change in Contoso.
  await page.getByTestId('audit-filter-user').fill('riley');
  await page.getByTestId('audit-filter-action').fill('retention');
  await page.getByTestId('audit-filter-org').selectOption({ label: ORG });
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('audit-count')).toHaveText('1 entry');
  const row = rows(page).first();
  await expect(row).toHaveAttribute('data-action', 'audit.retention.update');
  const entryId = (await row.getAttribute('data-id')) ?? '';

  // The drawer: who, what, when, and the change as before and after.
  await row.click();
  const drawer = page.getByTestId('audit-drawer');
  await expect(drawer.getByTestId('audit-who')).toContainText('Riley Chen');
  await expect(drawer.getByTestId('audit-who')).toContainText(ADMIN);
  await expect(drawer.getByTestId('audit-role')).not.toHaveText('—');
  await expect(drawer.getByTestId('audit-resource-type')).toHaveText('organization');
  const change = drawer.getByTestId('audit-change');
  await expect(change).toHaveCount(1);
  await expect(change).toHaveAttribute('data-kind', 'changed');
  await expect(change).toContainText('retentionDays');
  await expect(change).toContainText('365');
  await expect(change).toContainText('180');
  await expect(drawer.getByTestId('audit-entry-id')).toHaveText(entryId);
  await screen(page, 'audit-drawer');
  // The keyboard: Escape closes, Enter opens the highlighted row again.
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('audit-drawer')).toBeVisible();
  await page.keyboard.press('Escape');

  // Free text searches across the entries as well: the same filters AND "180" in the details.
  await page.getByTestId('audit-search').fill('180');
  await expect(rows(page)).toHaveCount(1);
  await page.getByTestId('audit-search').fill('no such words anywhere');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  await page.getByTestId('audit-search').fill('');
  await expect(rows(page)).toHaveCount(1);

  // Export the filtered log: the saved CSV holds exactly the filtered row.
  const download = page.waitForEvent('download');
  await page.getByTestId('audit-export-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{8}-\d{6}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toMatch(/^id,timestamp,orgId,/);
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(entryId);
  expect(csv[1]).toContain('audit.retention.update');
  const status = page.getByTestId('audit-export-status');
  await expect(status).toHaveAttribute('data-state', 'done');
  await expect(status.getByTestId('audit-export-rows')).toHaveText('1 row');
  await expect(status.getByTestId('audit-export-truncated')).toHaveCount(0);
  // The export itself is recorded (data.export): its push offers the new activity, without moving the rows.
  await expect(page.getByTestId('audit-fresh')).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  // JSON: the same row, as the full entry.
  const jsonDownload = page.waitForEvent('download');
  await page.getByTestId('audit-export-json').click();
  const json = JSON.parse(readFileSync(await (await jsonDownload).path(), 'utf8')) as Array<{ id: string }>;
  expect(json.map((e) => e.id)).toEqual([entryId]);
  await expect(status.getByTestId('audit-export-rows')).toHaveText('1 row');
  await expect(status.getByTestId('audit-export-file')).toHaveText(/\.json$/);

  // Reports over the last 30 days: events per day drawn, the auditor among the active users.
  await page.getByTestId('audit-tab-reports').click();
  await expect(page.getByTestId('chart-events-per-day')).toBeVisible();
  await expect(page.getByTestId('report-overview-total')).not.toHaveText('0');
  await expect(page.getByTestId('report-users-table')).toContainText('Riley Chen');
  await screen(page, 'audit-reports');

  // Chain status: Contoso's chain verified now is intact and says what it checked.
  await page.getByTestId('audit-tab-chains').click();
  const contoso = page.locator(`[data-testid="chain-row"][data-chain="${contosoId}"]`);
  await contoso.getByTestId('chain-verify').click();
  const result = contoso.getByTestId('verify-result');
  await expect(result).toHaveAttribute('data-valid', 'true');
  await expect(result.getByTestId('verify-checked')).not.toHaveText('0 rows');
  await expect(contoso.getByTestId('chain-last')).toHaveText('Intact');
  await screen(page, 'audit-chains');

  // Someone edits the retention entry in the database file itself: the next verification names that row.
  const db = new Database(ts.server.config.databaseFile);
  try {
    const changed = db
      .prepare("UPDATE audit_logs SET resource_name = 'nothing to see' WHERE id = ?")
      .run(entryId);
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
  await contoso.getByTestId('chain-verify').click();
  await expect(result).toHaveAttribute('data-valid', 'false');
  await expect(result.getByTestId('verify-problem').first()).toHaveAttribute(
    'data-reason',
    'checksum_mismatch',
  );
  await expect(result.getByTestId('verify-edited').first()).toHaveAttribute('data-id', entryId);
  await expect(result.getByTestId('verify-edited').first()).toContainText('audit.retention.update');
  await expect(contoso.getByTestId('chain-last')).toHaveText('Tampered');
  await screen(page, 'audit-chain-tampered');

  expect(errors).toEqual([]);
});

test('an organization read-only user reads the log but is offered no export', async ({ page }) => {
  const errors = watchErrors(page);
  const reader = new MfaTechnician(ts, 'morgan.blake@fabrikam.demo', ts.server.demo?.password ?? '');
  await reader.enrollTotp();
  await reader.signIn(page, 'Morgan');
  await page.goto(`${ts.url}/audit`);
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByTestId('audit-export-csv')).toBeDisabled();
  await expect(page.getByTestId('audit-export-csv')).toHaveAttribute('title', /audit:export/);
  // One organization: no organization picker; and no entry of Contoso's (another organization) in sight.
  await expect(page.getByTestId('audit-filter-org')).toHaveCount(0);
  await page.getByTestId('audit-filter-action').fill('retention');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  expect(errors).toEqual([]);
});
