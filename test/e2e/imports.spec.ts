// Estate import in the console (issue 15): a partner administrator uploads a CSV of 300 organizations with
// their sites and site contacts (one row names an existing organization, one carries an unknown time zone),
// confirms the name-match in the preview, imports, downloads the failed row with its reason; then imports one
// contact per organization from pasted text, finds an imported organization in Tenants with its sites and
// contacts, clears a contact's phone, and manages a partner provisioning key (created once, used, rotated,
// revoked).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { MfaTechnician, screen, startServer, watchErrors, type TestServer } from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
const EXISTING = 'Contoso Dental';
const ORGS = 300;

let ts: TestServer;
let person: MfaTechnician;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true' });
  const password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  // Import and partner keys need an MFA session: TOTP is enrolled once, then each sign-in uses a fresh code.
  person = new MfaTechnician(ts, ADMIN, password);
  await person.enrollTotp();
});

test.afterAll(async () => {
  await ts?.stop();
});

const orgName = (i: number) => `Client ${String(i).padStart(3, '0')} Ltd`;
const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const csvLine = (cells: string[]) => cells.map(quote).join(',');

/**
 * 300 organizations, each with a head office and every third with a warehouse too (400 rows), the warehouse of
 * organization 9 in a time zone that does not exist, and a new site of the demo's Contoso Dental (a name-match).
 * Written as a spreadsheet exports it: byte-order mark, CRLF, quoted cells holding commas.
 */
function organizationsCsv(): string {
  const lines = [
    csvLine([
      'Company Name',
      'Site',
      'Time Zone',
      'Street',
      'City',
      'Postal Code',
      'Country',
      'Contact Name',
      'Contact Email',
      'External ID',
    ]),
  ];
  for (let i = 1; i <= ORGS; i++) {
    const n = String(i).padStart(3, '0');
    lines.push(
      csvLine([
        orgName(i),
        'Head office',
        'Europe/London',
        `${i} Quay Street, Unit ${i % 7}`,
        'Bristol',
        `BS1 ${n}`,
        'United Kingdom',
        `Office ${n}`,
        `office${n}@client${n}.example`,
        `crm-${n}`,
      ]),
    );
    if (i % 3 === 0)
      lines.push(
        csvLine([
          orgName(i),
          'Warehouse',
          i === 9 ? 'Mars/Olympus_Mons' : 'Europe/London',
          `Dock ${i}`,
          'Avonmouth',
          `BS11 ${n}`,
          'United Kingdom',
          '',
          '',
          `crm-${n}`,
        ]),
      );
  }
  lines.push(
    csvLine([EXISTING, 'Annex', 'America/New_York', '5 Harbor Way', 'Boston', '02110', 'USA', '', '', '']),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** One contact per imported organization, one for Contoso Dental, and one with a role the spec does not know. */
function contactsCsv(): string {
  const lines = ['Organization,Site,Name,Email,Phone,Roles,Title'];
  for (let i = 1; i <= ORGS; i++) {
    const n = String(i).padStart(3, '0');
    lines.push(
      csvLine([
        orgName(i),
        'Head office',
        `Alex Morgan ${n}`,
        `alex.morgan@client${n}.example`,
        `+44 117 496 0${n}`,
        'billing; escalation',
        'Practice manager',
      ]),
    );
  }
  lines.push(
    csvLine([
      EXISTING,
      '',
      'Dana Whitfield',
      'dana@contoso.example',
      '',
      'technical, after hours',
      'IT lead',
    ]),
  );
  lines.push(csvLine([orgName(1), '', 'Sam Chair', 'sam@client001.example', '', 'chairman', '']));
  return lines.join('\n');
}

const count = (page: Page, id: string) => page.getByTestId(id);

test('a partner administrator imports 300 organizations, their sites and contacts through the wizards', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await person.signIn(page, 'Riley');

  // Tenants offers the import to a partner administrator.
  await page.goto(`${ts.url}/tenants`);
  await page.getByTestId('org-import').click();
  await expect(page.getByTestId('import-wizard-organizations')).toBeVisible();
  await expect(page.getByTestId('import-mfa-hint')).toHaveCount(0);
  await screen(page, 'import-1-file');

  // 1. The file, uploaded.
  await page.getByTestId('import-file').setInputFiles({
    name: 'psa-companies.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(organizationsCsv(), 'utf8'),
  });

  // 2. Columns: every header of the export maps by itself; the first values show beside each field.
  const map = page.getByTestId('import-map');
  await expect(map).toContainText('psa-companies.csv: 401 rows under 10 columns');
  await expect(map).toContainText('Every column is mapped.');
  await expect(page.getByTestId('import-map-organization')).toHaveValue('0');
  await expect(page.getByTestId('import-map-address.street')).toHaveValue('3');
  await expect(page.getByTestId('import-map-externalId')).toHaveValue('9');
  // The quoted street with its comma is one cell.
  await expect(page.locator('[data-testid="import-map-row"][data-field="address.street"]')).toContainText(
    '1 Quay Street, Unit 1',
  );
  await expect(page.getByTestId('import-sample')).toContainText(orgName(1));
  await screen(page, 'import-2-columns');

  // 3. Preview: 399 new rows, the bad time zone a conflict, Contoso Dental a name-match waiting for a decision.
  await page.getByTestId('import-to-preview').click();
  await expect(page.getByTestId('import-preview')).toBeVisible();
  await expect(count(page, 'import-count-create')).toHaveAttribute('data-count', '399');
  await expect(count(page, 'import-count-conflict')).toHaveAttribute('data-count', '1');
  await expect(count(page, 'import-count-name-match')).toHaveAttribute('data-count', '1');
  await expect(count(page, 'import-count-undecided')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('import-commit')).toBeDisabled();
  await expect(page.getByTestId('import-legend')).toContainText('nothing proves it is the same customer');
  await page.getByTestId('import-count-conflict').click();
  await expect(page.getByTestId('import-preview-row')).toHaveCount(1);
  await expect(page.getByTestId('import-preview-row')).toContainText(
    'Unknown IANA time zone: Mars/Olympus_Mons',
  );
  await page.getByTestId('import-count-undecided').click();
  const waiting = page.locator('[data-testid="import-preview-row"][data-annotation="name-match"]');
  await expect(waiting).toHaveAttribute('data-subject', EXISTING);
  await screen(page, 'import-3-preview');

  // The name-match, confirmed on its row: attach the Annex to the existing Contoso Dental.
  await waiting.getByTestId('import-decision').selectOption({ label: `Attach to ${EXISTING}` });
  await expect(count(page, 'import-count-undecided')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('import-undecided')).toHaveCount(0);
  await page.getByTestId('import-count-all').click();
  await screen(page, 'import-3-preview-decided');

  // 4. Import: 400 rows land, the conflict fails with its reason, and its CSV carries the file's own columns.
  await expect(page.getByTestId('import-commit')).toHaveText('Import 400 rows');
  await expect(page.getByTestId('import-cannot')).toContainText('1 row that cannot go in');
  // The commit request is held back a moment on its way, so the progress it shows can be looked at.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/orgs/import', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('import-commit').click();
  await expect(page.getByTestId('import-running')).toContainText('Sending rows: 0 of 401');
  await screen(page, 'import-4-running');
  release();
  await expect(page.getByTestId('import-result')).toBeVisible({ timeout: 30_000 });
  await page.unroute('**/api/v1/orgs/import');
  await expect(count(page, 'import-result-imported')).toHaveAttribute('data-count', '400');
  await expect(count(page, 'import-result-failed')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('import-result-row')).toHaveCount(1);
  await expect(page.getByTestId('import-result-row')).toContainText('row-conflict');
  await screen(page, 'import-4-result');
  const download = page.waitForEvent('download');
  await page.getByTestId('import-download-failed').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('psa-companies-failed-rows.csv');
  const failedCsv = readFileSync((await file.path()) ?? '', 'utf8');
  expect(failedCsv).toContain('Company Name,Site,Time Zone');
  expect(failedCsv).toContain('Client 009 Ltd,Warehouse,Mars/Olympus_Mons');
  expect(failedCsv).toContain('row-conflict');

  // The contacts wizard, from pasted text.
  await page.getByTestId('import-tab-contacts').click();
  await expect(page.getByTestId('import-wizard-contacts')).toBeVisible();
  await page.getByTestId('import-way-paste').click();
  await page.getByTestId('import-paste').fill(contactsCsv());
  await screen(page, 'import-contacts-1-paste');
  await page.getByTestId('import-paste-use').click();
  await expect(page.getByTestId('import-map-roles')).toHaveValue('5');
  await expect(page.locator('[data-testid="import-map-row"][data-field="roles"]')).toContainText(
    'billing; escalation',
  );
  await page.getByTestId('import-to-preview').click();
  await expect(count(page, 'import-count-create')).toHaveAttribute('data-count', '301');
  await expect(count(page, 'import-count-conflict')).toHaveAttribute('data-count', '1');
  await page.getByTestId('import-count-conflict').click();
  await expect(page.getByTestId('import-preview-row')).toContainText('Unknown role: chairman');
  await page.getByTestId('import-count-all').click();
  await screen(page, 'import-contacts-3-preview');
  await page.getByTestId('import-commit').click();
  await expect(page.getByTestId('import-result')).toBeVisible({ timeout: 30_000 });
  await expect(count(page, 'import-result-imported')).toHaveAttribute('data-count', '301');
  await expect(count(page, 'import-result-failed')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('import-result-row')).toContainText('invalid-role');
  await screen(page, 'import-contacts-4-result');

  // A second file updates a contact it matches by email only: the row waits until it is confirmed, then with
  // "update" the contact takes the mobile number the file adds (and keeps everything the file leaves out).
  await page.getByTestId('import-again').click();
  await page.getByTestId('import-way-paste').click();
  await page
    .getByTestId('import-paste')
    .fill(
      `Organization,Name,Email,Mobile\n${orgName(150)},Alex Morgan 150,alex.morgan@client150.example,+44 7700 900150\n`,
    );
  await page.getByTestId('import-paste-use').click();
  await page.getByTestId('import-to-preview').click();
  const hinted = page.locator('[data-testid="import-preview-row"][data-annotation="email-match"]');
  await expect(hinted).toHaveCount(1);
  await expect(page.getByTestId('import-commit')).toBeDisabled();
  await hinted
    .getByTestId('import-decision')
    .selectOption({ label: 'Apply to alex.morgan@client150.example' });
  await page.getByTestId('import-mode-update').check();
  await screen(page, 'import-contacts-3-preview-email-match');
  await page.getByTestId('import-commit').click();
  await expect(count(page, 'import-result-updated')).toHaveAttribute('data-count', '1');
  await expect(count(page, 'import-result-imported')).toHaveAttribute('data-count', '0');

  // Tenants: the search finds an imported organization; it has both its sites and its contact.
  await page.getByTestId('import-done-link').click();
  await expect(page.getByTestId('org-count')).toHaveText('304 organizations');
  await page.getByTestId('org-search').fill('client 150');
  await expect(page.getByTestId('org-row')).toHaveCount(1);
  await screen(page, 'import-tenants-search');
  await page.getByTestId('org-open').click();
  await expect(page.getByTestId('org-title')).toHaveText(orgName(150));
  await expect(page.getByTestId('site-row')).toHaveCount(2);
  const contact = page.getByTestId('contact-row');
  await expect(contact).toHaveCount(1);
  await expect(contact).toContainText('Alex Morgan 150');
  await expect(contact).toContainText('Billing');
  await expect(contact).toContainText('Head office');
  await expect(contact.getByTestId('contact-phone')).toContainText('+44 117 496 0150');
  await expect(contact.getByTestId('contact-phone')).toContainText('Mobile +44 7700 900150');
  await page.getByTestId('org-contacts').scrollIntoViewIfNeeded();
  await screen(page, 'import-org-contacts');

  // Clearing a field: the PATCH sends null for the emptied phone; the mobile stays.
  await contact.getByTestId('contact-menu').click();
  await page.getByTestId('contact-menu-edit').click();
  const dialog = page.getByTestId('contact-dialog');
  await expect(dialog.getByTestId('contact-name')).toHaveValue('Alex Morgan 150');
  await dialog.getByTestId('contact-phone').fill('');
  await dialog.locator('[data-testid="contact-role"][data-name="After hours"]').check();
  await screen(page, 'import-contact-edit');
  await dialog.getByTestId('contact-save').click();
  await expect(dialog).toHaveCount(0);
  await expect(contact.getByTestId('contact-phone')).toHaveText('Mobile +44 7700 900150');
  await expect(contact).toContainText('After hours');

  expect(errors).toEqual([]);
});

test('partner keys: created and shown once, used, rotated, revoked', async ({ page }) => {
  const errors = watchErrors(page);
  await person.signIn(page, 'Riley');
  await page.goto(`${ts.url}/keys`);
  await page.getByTestId('keys-tab-partner').click();
  await expect(page.getByTestId('partner-keys-empty')).toBeVisible();

  await page.getByTestId('create-partner-key').click();
  const form = page.getByTestId('partner-key-create-dialog');
  await form.getByTestId('partner-key-name').fill('Onboarding runbook');
  await form.locator('[data-testid="partner-key-scope"][data-name="Create organizations"]').check();
  await screen(page, 'keys-partner-create');
  await form.getByTestId('partner-key-create-submit').click();
  const secret = (await page.getByTestId('partner-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^psk_/);
  await screen(page, 'keys-partner-reveal');
  await page.getByTestId('partner-key-done').click();

  // The list shows the prefix only, never the key.
  const row = page.locator('[data-testid="partner-key-row"][data-name="Onboarding runbook"]');
  await expect(row.getByTestId('partner-key-status')).toHaveText('active');
  await expect(row).toContainText('Create organizations');
  await expect(page.getByTestId('partner-keys-table')).not.toContainText(secret);
  const list = async (key: string) =>
    fetch(`${ts.url}/api/v1/partner-api/organizations?limit=500`, { headers: { 'x-api-key': key } });
  const listed = await list(secret);
  expect(listed.status).toBe(200);
  expect(((await listed.json()) as { data: unknown[] }).data.length).toBeGreaterThan(300);
  await screen(page, 'keys-partner-list');

  // Rotate: a new key, shown once; the old one stops.
  await row.getByTestId('partner-key-rotate').click();
  await page.getByTestId('partner-key-rotate-dialog').getByRole('button', { name: 'Rotate key' }).click();
  const rotated = (await page.getByTestId('partner-key-secret').textContent())?.trim() ?? '';
  expect(rotated).toMatch(/^psk_/);
  expect(rotated).not.toBe(secret);
  await page.getByTestId('partner-key-done').click();
  expect((await list(secret)).status).toBe(401);
  expect((await list(rotated)).status).toBe(200);

  // Revoke, confirmed: the key is refused and the row says so.
  await row.getByTestId('partner-key-revoke').click();
  await page.getByTestId('partner-key-revoke-dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(row.getByTestId('partner-key-status')).toHaveText('revoked');
  expect((await list(rotated)).status).toBe(401);

  expect(errors).toEqual([]);
});
