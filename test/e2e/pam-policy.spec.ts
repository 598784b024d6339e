// Elevation policy end to end (issue 5): a demo server with simulated agents speaking the real agent protocol and
// the partner admin in real Chromium. The admin opens a request a simulated agent raised, makes a rule from it
// (signer kept, live preview against history), and the next request with that signer is auto-approved at ingest
// and granted on the device; the organization default switched to auto-deny denies an unsigned tool at ingest;
// the audit export saves one CSV file holding those events.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { demoSimulator } from '../../server/modules/demo/simulator';
import { EXPORT_COLUMNS } from '../../server/modules/pam/audit-export/schemas';
import { HttpError } from '../../server/http/errors';
import type { SimulatedElevationKind, SimulatorElevationResponse } from '../../server/contract';
import { MfaTechnician, screen, startServer, type TestServer, watchErrors } from './fixtures';

const AGENTS = 3;
const ADMIN = 'riley.chen@northwind.demo';
/**
 * Each simulated agent draws its installer at random (one of 3 to 6 per platform), so the rule's signer comes up
 * again only now and then; this many further requests make missing it practically impossible (< 0.1 %).
 */
const MAX_RAISES = 150;

let ts: TestServer;
let password: string;
let person: MfaTechnician;

test.describe.configure({ mode: 'serial' });

interface RequestRow {
  id: string;
  org_id: string;
  status: string;
  enforcement_status: string | null;
  decision_source: string | null;
  pam_rule_id: string | null;
  decision_reason: string | null;
  target_executable_signer: string | null;
}

const db = () => ts.server.context.db;
const requestRow = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as RequestRow | undefined;
const simulator = () => demoSimulator(ts.server.context);

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: String(AGENTS), AGENT_HEARTBEAT_SECONDS: '2' });
  password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  await expect
    .poll(() => simulator().status().connected, { timeout: 30_000, message: 'the simulated agents connect' })
    .toBe(AGENTS);
  // Writes need an MFA session: the technician enrolls TOTP once, then signs in with fresh codes.
  person = new MfaTechnician(ts, ADMIN, password);
  await person.enrollTotp();
});

test.afterAll(async () => {
  await ts?.stop();
});

/** One request from a simulated agent; a 429 (10 reports a second per device) is waited out as it asks. */
async function raise(kind: SimulatedElevationKind): Promise<SimulatorElevationResponse & { id: string }> {
  for (;;) {
    try {
      const raised = await simulator().raiseElevation({ kind });
      expect(raised.id).not.toBeNull();
      return { ...raised, id: raised.id as string };
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      const seconds = Number(err.headers?.['Retry-After'] ?? '1');
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

test('a rule made from a request decides the next one; defaults deny; the audit export holds it all', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await person.signIn(page, 'Riley');

  // 1. A simulated agent asks to run a signed installer; nothing decides it yet, so it waits for a technician.
  const first = await raise('signed_installer');
  expect(first.status).toBe('pending');
  const firstRow = requestRow(first.id);
  const signer = firstRow?.target_executable_signer ?? '';
  expect(signer).not.toBe('');
  const orgId = firstRow?.org_id ?? '';

  await page.goto(`${ts.url}/approvals/${first.id}`);
  await expect(page.getByTestId('request-status')).toHaveText('Pending');
  await screen(page, '60-request-before-rule');

  // 2. Make a rule from it: keep the signer, drop the user's download path (it names one machine's user).
  await page.getByTestId('create-rule-from-request').click();
  await expect(page).toHaveURL(new RegExp(`/pam/rules/new\\?.*fromRequest=${first.id}`));
  await expect(page.getByTestId('rule-prefill')).toBeVisible();
  await expect(page.getByTestId('rule-prefill-signer')).toBeChecked();
  await expect(page.getByTestId('rule-match-signer')).toHaveValue(signer);
  await page.getByTestId('rule-prefill-pathGlob').uncheck();
  await expect(page.getByTestId('rule-match-path')).toHaveValue('');
  await page.getByTestId('rule-verdict').selectOption('auto_approve');
  await expect(page.getByTestId('rule-name')).toHaveValue(/^Allow .+ signed by /);

  // The preview counts the history against the criteria as they stand (at least the request itself).
  const count = page.getByTestId('rule-preview-count');
  await expect(count).not.toHaveClass(/ep-dim/, { timeout: 20_000 });
  await expect(count).toContainText('Would have matched');
  const matched = Number(
    /Would have matched\s+([\d,]+)/.exec(await count.innerText())?.[1]?.replace(/,/g, ''),
  );
  expect(matched).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('rule-preview-sample')).toContainText('Pending');
  await screen(page, '61-rule-from-request');

  await page.getByTestId('rule-save').click();
  await expect(page).toHaveURL(/\/pam\/rules\?.*saved=/);
  const ruleId = new URL(page.url()).searchParams.get('saved') ?? '';
  expect(ruleId).not.toBe('');
  const ruleRow = page.getByTestId(`pam-rule-row-${ruleId}`);
  await expect(ruleRow).toBeVisible();
  await expect(ruleRow).toContainText(signer);
  await expect(ruleRow).toContainText('Auto-approve');
  expect(
    db()
      .prepare('SELECT org_id, verdict, match_signer, match_path_glob, enabled FROM pam_rules WHERE id = ?')
      .get(ruleId),
  ).toEqual({
    org_id: orgId,
    verdict: 'auto_approve',
    match_signer: signer,
    match_path_glob: null,
    enabled: 1,
  });
  await screen(page, '62-rules-list');

  // 3. Installers keep coming; each one with the rule's signer is approved at ingest by the rule and granted on the
  // device, the others still wait. (Which installer an agent runs is random: raise until the signer comes up.)
  let approved: (SimulatorElevationResponse & { id: string }) | null = null;
  for (let i = 0; i < MAX_RAISES && !approved; i++) {
    const next = await raise('signed_installer');
    const row = requestRow(next.id);
    if (row?.target_executable_signer?.toLowerCase() === signer.toLowerCase()) {
      expect(next.status).toBe('auto_approved');
      expect(row).toMatchObject({
        status: 'auto_approved',
        decision_source: 'pam_rule',
        pam_rule_id: ruleId,
      });
      approved = next;
    } else {
      expect(next.status).toBe('pending');
      expect(row?.pam_rule_id).toBeNull();
    }
  }
  expect(approved, `a request signed by ${signer} within ${MAX_RAISES} raises`).not.toBeNull();
  const approvedId = approved?.id ?? '';
  await expect
    .poll(() => requestRow(approvedId)?.enforcement_status, {
      timeout: 20_000,
      message: 'the agent reports the grant active',
    })
    .toBe('active');
  await page.goto(`${ts.url}/approvals/${approvedId}`);
  // The status follows what the device reports; who decided it stays on the classification card.
  await expect(page.getByTestId('request-status')).toHaveText('Active on the device');
  await expect(page.getByTestId('request-decision-source')).toHaveText('PAM rule');
  await expect(page.getByTestId('request-enforcement')).toHaveAttribute('data-value', 'active');
  await screen(page, '63-request-auto-approved');

  // 4. Defaults: with auto-deny, an unsigned tool (no rule matches it) is denied at ingest.
  await page.goto(`${ts.url}/pam/defaults?orgId=${orgId}`);
  await expect(page.getByTestId('pam-tab-defaults')).toBeVisible();
  const verdict = page.getByTestId('pam-default-verdict');
  await expect(verdict).toHaveValue('require_approval');
  await verdict.selectOption('auto_deny');
  await page.getByTestId('pam-config-save').click();
  await expect(page.getByTestId('pam-config-saved')).toBeVisible();
  await expect(verdict).toHaveValue('auto_deny');
  expect(
    db().prepare('SELECT default_unmatched_verdict FROM pam_config WHERE org_id = ?').get(orgId),
  ).toEqual({
    default_unmatched_verdict: 'auto_deny',
  });
  await screen(page, '64-defaults-auto-deny');

  const unsigned = await raise('unsigned_tool');
  expect(unsigned.status).toBe('denied');
  expect(requestRow(unsigned.id)).toMatchObject({
    status: 'denied',
    pam_rule_id: null,
    decision_reason: 'Denied by the organization default',
  });

  await verdict.selectOption('require_approval');
  await page.getByTestId('pam-config-save').click();
  await expect(page.getByTestId('pam-config-saved')).toBeVisible();
  await expect(verdict).toHaveValue('require_approval');
  expect(
    db().prepare('SELECT default_unmatched_verdict FROM pam_config WHERE org_id = ?').get(orgId),
  ).toEqual({
    default_unmatched_verdict: 'require_approval',
  });
  await screen(page, '65-defaults-restored');

  // 5. Audit export of the last hour as CSV: one file, saved by the browser.
  await page.getByTestId('pam-tab-export').click();
  await expect(page).toHaveURL(/\/pam\/export/);
  const range = await page.evaluate(() => {
    const local = (ms: number) => {
      const d = new Date(ms);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    };
    // The inputs hold whole minutes: end at the next one, so the last seconds are inside the window.
    const end = Math.ceil((Date.now() + 1_000) / 60_000) * 60_000;
    return { from: local(end - 3_600_000), to: local(end) };
  });
  await page.getByTestId('export-from').fill(range.from);
  await page.getByTestId('export-to').fill(range.to);
  await page.getByTestId('export-format').selectOption('csv');
  const downloading = page.waitForEvent('download', { timeout: 20_000 });
  await page.getByTestId('export-run').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^elevation-audit_.+\.csv$/);
  const status = page.getByTestId('export-status');
  await expect(status).toContainText('Saved');
  await expect(status).toContainText(download.suggestedFilename());
  // The window reaches into the next minute: still open, so the console says how far it is settled.
  await expect(page.getByTestId('export-settled')).toBeVisible();
  await screen(page, '66-audit-export');

  const path = await download.path();
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
  expect(header).toEqual([...EXPORT_COLUMNS]);
  const col = (name: (typeof EXPORT_COLUMNS)[number]) => EXPORT_COLUMNS.indexOf(name);
  const events = (id: string) =>
    rows.filter((r) => r[col('elevationRequestId')] === id).map((r) => r[col('eventType')]);
  expect(rows.every((r) => r.length === EXPORT_COLUMNS.length && r[col('orgId')] === orgId)).toBe(true);
  expect(events(first.id)).toContain('elevation.requested');
  expect(events(approvedId)).toEqual(
    expect.arrayContaining([
      'elevation.requested',
      'elevation.auto_approved',
      'elevation.enforcement_changed',
    ]),
  );
  expect(events(unsigned.id)).toEqual(expect.arrayContaining(['elevation.requested', 'elevation.denied']));
  const autoApproved = rows.find(
    (r) => r[col('elevationRequestId')] === approvedId && r[col('eventType')] === 'elevation.auto_approved',
  );
  expect(autoApproved?.[col('pamRuleId')]).toBe(ruleId);
  expect(autoApproved?.[col('decisionSource')]).toBe('pam_rule');
  // What the status panel counted is what the file holds.
  await expect(status).toContainText(`${rows.length.toLocaleString('en-US')} row`);
  expect(errors).toEqual([]);
});
