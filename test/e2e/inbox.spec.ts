// The approvals inbox under load (issue 16 item 2): a demo server with 50 pending requests from agents of two
// organizations, reported through the real agent API. A technician filters to the critical ones of one
// organization and denies three in bulk with one reason (a fourth, decided by someone else meanwhile, is
// skipped); then approves one request and its two look-alikes with "decide similar", confirming each on the
// platform authenticator (Chromium's virtual authenticator). A request arriving while the inbox is open lands on
// top, highlighted.
import { expect, test, type Page } from '@playwright/test';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import {
  addPlatformAuthenticator,
  MfaTechnician,
  registerApproverDevice,
  screen,
  startServer,
  type TestServer,
  watchErrors,
} from './fixtures';

const TECH = 'sam.ortiz@northwind.demo';
const LOOKALIKE_HASH = 'b7'.repeat(32);

let ts: TestServer;
let password: string;
let person: MfaTechnician;
const orgs: Record<'contoso' | 'fabrikam', string> = { contoso: '', fabrikam: '' };

test.describe.configure({ mode: 'serial' });

const db = () => ts.server.context.db;
const requestRow = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, unknown>;
const orgIdBySlug = (slug: string) =>
  (db().prepare('SELECT id FROM organizations WHERE slug = ?').get(slug) as { id: string }).id;

interface Agent {
  agentId: string;
  authToken: string;
}

/** Enrolls an agent through the public enrollment endpoint, as an installer would. */
async function enroll(orgId: string, hostname: string): Promise<Agent> {
  const { key } = insertEnrollmentKey(ts.server.context, {
    orgId,
    siteId: null,
    name: 'e2e inbox',
    maxUsage: 1,
    createdBy: 'test',
  });
  const res = await fetch(`${ts.url}/api/v1/agents/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      enrollmentKey: key,
      hostname,
      osType: 'windows',
      osVersion: 'Windows 11 Pro 23H2',
      architecture: 'x64',
      agentVersion: '1.0.0',
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Agent;
}

type Kind = 'critical' | 'high' | 'medium' | 'low' | 'lookalike';

const REPORTS: Record<Kind, (n: number, user: string) => Record<string, unknown>> = {
  critical: (n, user) => ({
    flow_type: 'ai_tool_action',
    tool_name: 'manage_local_users',
    risk_tier: 4,
    subject_username: user,
    command_line: `net localgroup administrators ${user.split('\\')[1]} /add # ${n}`,
  }),
  high: (n, user) => ({
    subject_username: user,
    target_executable_path: `C:\\Users\\Public\\Downloads\\tool-${n}.exe`,
    target_executable_hash: n.toString(16).padStart(64, 'c'),
  }),
  medium: (n, user) => ({
    subject_username: user,
    target_executable_path: `C:\\Users\\${user.split('\\')[1]}\\Downloads\\ZoomInstaller-${n}.exe`,
    target_executable_hash: n.toString(16).padStart(64, 'd'),
    target_executable_signer: 'Zoom Video Communications, Inc.',
  }),
  low: (n, user) => ({
    flow_type: 'ai_tool_action',
    tool_name: 'read_file',
    risk_tier: 0,
    subject_username: user,
    command_line: `type C:\\ProgramData\\Vendor\\log-${n}.txt`,
  }),
  lookalike: (_n, user) => ({
    subject_username: user,
    target_executable_path: 'C:\\Users\\Public\\Downloads\\npp.8.6.Installer.x64.exe',
    target_executable_hash: LOOKALIKE_HASH,
    target_executable_signer: 'Notepad++',
  }),
};

let reported = 0;
/** One elevation report through the agent API; reports are spaced to stay under the per-device rate. */
async function report(agent: Agent, kind: Kind, user = 'CONTOSO\\alice'): Promise<string> {
  reported += 1;
  const res = await fetch(`${ts.url}/api/v1/agents/${agent.agentId}/elevation-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.authToken}` },
    body: JSON.stringify({ observed_at: new Date().toISOString(), ...REPORTS[kind](reported, user) }),
  });
  const body = (await res.json()) as { id: string; status: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  expect(body.status).toBe('pending');
  await new Promise((r) => setTimeout(r, 120));
  return body.id;
}

/** A platform authenticator with user verification, as Windows Hello or Touch ID presents itself. */
const lookalikes: string[] = [];

test.beforeAll(async () => {
  ts = await startServer({ SEED_DEMO: 'true', DEMO_AGENTS: '0', PAM_PENDING_TTL_MINUTES: '240' });
  password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  person = new MfaTechnician(ts, TECH, password);
  await person.enrollTotp();
  orgs.contoso = orgIdBySlug('contoso-dental');
  orgs.fabrikam = orgIdBySlug('fabrikam-legal');
  const contoso = [await enroll(orgs.contoso, 'CD-FRONT-01'), await enroll(orgs.contoso, 'CD-XRAY-02')];
  const fabrikam = [await enroll(orgs.fabrikam, 'FL-PARA-01'), await enroll(orgs.fabrikam, 'FL-PARTNER-02')];
  // 50 pending requests: 24 from Contoso Dental (6 critical, 3 look-alikes), 26 from Fabrikam Legal (5 critical).
  const plan: Array<[Agent[], Kind, number]> = [
    [contoso, 'critical', 6],
    [contoso, 'high', 5],
    [contoso, 'medium', 6],
    [contoso, 'low', 4],
    [fabrikam, 'critical', 5],
    [fabrikam, 'high', 7],
    [fabrikam, 'medium', 8],
    [fabrikam, 'low', 6],
  ];
  for (const [agents, kind, count] of plan)
    for (let i = 0; i < count; i += 1)
      await report(agents[i % agents.length]!, kind, agents === contoso ? 'CONTOSO\\alice' : 'FABRIKAM\\bob');
  for (const agent of [contoso[0]!, contoso[1]!, contoso[0]!])
    lookalikes.push(await report(agent, 'lookalike', 'CONTOSO\\dana'));
  const pending = db()
    .prepare("SELECT COUNT(*) AS n FROM elevation_requests WHERE status = 'pending'")
    .get() as {
    n: number;
  };
  expect(pending.n).toBe(50);
});

test.afterAll(async () => {
  await ts?.stop();
});

const rows = (page: Page) => page.locator('[data-testid^="approval-row-"]');

test('a technician filters to the critical requests of one organization and denies three in bulk', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await person.signIn(page, 'Sam');
  await page.getByTestId('nav-approvals').click();
  await expect(page.getByTestId('inbox-count')).toHaveText('50 waiting');
  // Triage order: critical first.
  await expect(rows(page).first()).toHaveAttribute('data-risk', 'critical');
  await expect(rows(page).first().getByTestId('inbox-org')).not.toBeEmpty();
  await screen(page, '60-inbox-triage');

  await page.getByTestId('inbox-risk-critical').click();
  await page.getByTestId('inbox-org-filter').selectOption(orgs.contoso);
  await expect(page.getByTestId('inbox-count')).toHaveText('6 waiting');
  await expect(rows(page)).toHaveCount(6);
  for (const org of await rows(page).getByTestId('inbox-org').allTextContents())
    expect(org).toBe('Contoso Dental');
  expect(new URL(page.url()).search).toContain('risk=critical');

  // Select four; one is denied by someone else before the dialog is sent.
  const ids: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const row = rows(page).nth(i);
    ids.push(((await row.getAttribute('data-testid')) ?? '').replace('approval-row-', ''));
    await row.getByTestId('inbox-select').check();
  }
  await expect(page.getByTestId('inbox-selected-count')).toHaveText('4');
  await screen(page, '61-inbox-filtered-selected');
  await page.getByTestId('deny-selected').click();
  await expect(page.getByTestId('deny-selected-list').locator('li')).toHaveCount(4);
  await page.getByTestId('deny-selected-reason').fill('Local admin changes go through a change ticket');
  await screen(page, '62-inbox-deny-dialog');
  const other = await person.apiToken();
  const meanwhile = await fetch(`${ts.url}/api/v1/pam/elevation-requests/${ids[3]}/respond`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${other}` },
    body: JSON.stringify({ decision: 'deny', reason: 'Handled on the phone' }),
  });
  expect(meanwhile.status).toBe(200);
  await page.getByTestId('deny-selected-submit').click();
  await expect(page.getByTestId('bulk-headline')).toHaveText('3 requests denied, 1 skipped.');
  await expect(page.getByTestId('bulk-note')).toContainText('already decided');
  await expect(page.getByTestId('inbox-count')).toHaveText('2 waiting');
  await screen(page, '63-inbox-bulk-denied');

  for (const id of ids.slice(0, 3)) {
    expect(requestRow(id)).toMatchObject({
      status: 'denied',
      decision_reason: 'Local admin changes go through a change ticket',
    });
  }
  expect(requestRow(ids[3]!).decision_reason).toBe('Handled on the phone');
  ts.server.context.audit.flush();
  const audited = db()
    .prepare(
      "SELECT resource_id FROM audit_logs WHERE action = 'pam.elevation_request.deny' AND resource_id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(ids)) as Array<{ resource_id: string }>;
  expect(audited).toHaveLength(4);

  // A request arriving now lands on top of the (cleared) inbox, highlighted.
  await page.getByTestId('inbox-risk-critical').click();
  await page.getByTestId('inbox-org-filter').selectOption('');
  await expect(page.getByTestId('inbox-count')).toHaveText('46 waiting');
  const agent = await enroll(orgs.fabrikam, 'FL-RECEPTION-03');
  const fresh = await report(agent, 'medium', 'FABRIKAM\\erin');
  await expect(rows(page).first()).toHaveAttribute('data-testid', `approval-row-${fresh}`);
  await expect(rows(page).first()).toHaveClass(/ap-fresh/);
  await screen(page, '64-inbox-new-arrival');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await screen(page, '68-inbox-1920');
  expect(errors).toEqual([]);
});

test('a technician approves a request and its two look-alikes with "decide similar"', async ({ page }) => {
  const errors = watchErrors(page);
  await addPlatformAuthenticator(page);
  await person.signIn(page, 'Sam');
  // Register this computer as an approver device: each approve is then confirmed on it, one request at a time.
  await registerApproverDevice(page, 'Sam’s workstation', password);

  await page.goto(`${ts.url}/approvals?q=npp.8.6`);
  await expect(rows(page)).toHaveCount(3);
  await page.getByTestId(`approval-row-${lookalikes[0]}`).getByTestId('inbox-open').click();
  await expect(page.getByTestId('request-status')).toHaveText('Pending');
  const panel = page.getByTestId('similar-panel');
  await expect(panel).toContainText('Similar pending (2)');
  await expect(panel.getByTestId('similar-item')).toHaveCount(2);
  await screen(page, '65-request-similar-panel');

  await panel.getByTestId('similar-approve').click();
  await expect(page.getByTestId('decide-similar-list').locator('li')).toHaveCount(3);
  await page.getByTestId('similar-reason').fill('Notepad++ is on the approved software list');
  await screen(page, '66-decide-similar-dialog');
  await page.getByTestId('decide-similar-submit').click();
  await expect(page.getByTestId('bulk-headline')).toHaveText(
    '3 requests approved and sent to their devices.',
  );
  await expect(page.getByTestId('request-status')).not.toHaveText('Pending');
  await screen(page, '67-decide-similar-done');

  for (const id of lookalikes) {
    const row = requestRow(id);
    expect(['approved', 'actuating']).toContain(row.status);
    expect(row).toMatchObject({
      approved_by_name: 'Sam Ortiz',
      decision_reason: 'Notepad++ is on the approved software list',
      assurance_level: 2,
      assurance_method: 'platform_authenticator',
    });
  }
  // Three assertions, three devices' worth of separate decisions in the audit trail.
  ts.server.context.audit.flush();
  const audited = db()
    .prepare(
      "SELECT resource_id FROM audit_logs WHERE action = 'pam.elevation_request.approve' AND resource_id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(lookalikes)) as Array<{ resource_id: string }>;
  expect(audited).toHaveLength(3);
  expect(errors).toEqual([]);
});
