import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../server/modules/pam/audit-export/schemas';
import {
  insertApiKey,
  insertOrg,
  insertOrgRole,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';

// GET /pam/elevation-audit/export (spec 2, Privileged access endpoints): window rules, organization rules per
// scope, filters, site restriction, cursor paging through 2,500 events, tampered and foreign cursors, CSV quoting
// and formula neutralizing, JSONL, permissions, MFA and the audit entry. Requests, events and devices are written
// straight into SQLite, as the lead's ingest will write them.

let server: TestServer;
const ids = {
  p1: '',
  a1: '',
  a2: '',
  b1: '',
  s1: '',
  s2: '',
  sB: '',
  dev1: '',
  dev2: '',
  dev3: '',
  devA2: '',
  devB: '',
  req1: '',
  req2: '',
  req3: '',
  reqA2: '',
  reqB: '',
  bulk: '',
};
const tok = {
  system: '',
  orgAdmin: '',
  orgAdminB: '',
  orgTech: '',
  siteAuditor: '',
  noMfa: '',
  partnerAll: '',
  partnerSelected: '',
};
let apiKey = '';

// The feature window: one day in March. The bulk window: one day in June.
const W = { from: '2025-03-01T00:00:00.000Z', to: '2025-03-02T00:00:00.000Z' };
const BULK = { from: '2025-06-01T00:00:00.000Z', to: '2025-06-02T00:00:00.000Z' };
const at = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();
const MIN = 60_000;

/** Expected seqs of the feature events, by name. */
const seqs: Record<string, number> = {};
let bulkSeqs: number[] = [];

function insertDevice(orgId: string, siteId: string | null, hostname: string): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, os_type, os_version,
         architecture, agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'windows', 'Windows 11', 'x64', '1.0.0', ?, ?, ?)`,
    )
    .run(id, orgId, siteId, randomUUID(), randomUUID(), hostname, now, now, now);
  return id;
}

interface RequestFields {
  flowType?: string;
  status?: string;
  riskLevel?: string;
  subjectUsername?: string | null;
  path?: string | null;
  hash?: string | null;
  signer?: string | null;
  toolName?: string | null;
  riskTier?: number | null;
  decisionSource?: string | null;
  pamRuleId?: string | null;
  pamRuleName?: string | null;
  assuranceLevel?: number | null;
  assuranceMethod?: string | null;
}

function insertRequest(
  orgId: string,
  deviceId: string,
  siteId: string | null,
  f: RequestFields = {},
): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO elevation_requests (id, org_id, device_id, site_id, flow_type, status, risk_level,
         subject_username, target_executable_path, target_executable_hash, target_executable_signer, tool_name,
         risk_tier, decision_source, pam_rule_id, pam_rule_name, assurance_level, assurance_method, requested_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      orgId,
      deviceId,
      siteId,
      f.flowType ?? 'uac_intercept',
      f.status ?? 'pending',
      f.riskLevel ?? 'low',
      f.subjectUsername ?? 'jdoe',
      f.path === undefined ? 'C:\\Tools\\setup.exe' : f.path,
      f.hash === undefined ? 'a'.repeat(64) : f.hash,
      f.signer === undefined ? 'Contoso Ltd' : f.signer,
      f.toolName ?? null,
      f.riskTier ?? null,
      f.decisionSource ?? null,
      f.pamRuleId ?? null,
      f.pamRuleName ?? null,
      f.assuranceLevel ?? null,
      f.assuranceMethod ?? null,
      now,
      now,
    );
  return id;
}

interface EventFields {
  type: string;
  occurredAt: string;
  status?: string;
  enforcementStatus?: string | null;
  actorType?: string;
  actorId?: string | null;
  actorName?: string | null;
  details?: object;
}

/** Writes one event for `requestId` (org, site and device copied from the request) and returns its seq. */
function insertEvent(requestId: string, e: EventFields): number {
  const db = server.context.db;
  const req = db
    .prepare('SELECT org_id, site_id, device_id FROM elevation_requests WHERE id = ?')
    .get(requestId) as { org_id: string; site_id: string | null; device_id: string };
  const result = db
    .prepare(
      `INSERT INTO elevation_events (id, elevation_request_id, org_id, site_id, device_id, event_type, status,
         enforcement_status, actor_type, actor_id, actor_name, details, occurred_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      randomUUID(),
      requestId,
      req.org_id,
      req.site_id,
      req.device_id,
      e.type,
      e.status ?? 'pending',
      e.enforcementStatus ?? null,
      e.actorType ?? 'system',
      e.actorId ?? null,
      e.actorName ?? null,
      JSON.stringify(e.details ?? {}),
      e.occurredAt,
    );
  return Number(result.lastInsertRowid);
}

const exportUrl = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return `/pam/elevation-audit/export?${q.toString()}`;
};
const get = (params: Record<string, string | number | undefined>, token = tok.orgAdmin) =>
  server.api.get(exportUrl(params), token);

function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

/** The JSONL body as objects; the API client hands back text when the body is not one JSON document. */
function jsonl(res: ApiResponse): Array<Record<string, unknown>> {
  const text = typeof res.body === 'string' ? res.body : res.body === null ? '' : JSON.stringify(res.body);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A strict RFC 4180 reader: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else {
      if (c === '\n' || c === '\r' || c === '"') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0) throw new Error('last record not terminated by CRLF');
  return records;
}

function csvObjects(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}

const seqsOf = (rows: Array<Record<string, unknown>>) => rows.map((r) => Number(r.seq));

beforeAll(async () => {
  server = await startServer();
  const db = server.context.db;
  const p1 = insertPartner(server, { name: 'Northwind MSP' });
  const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
  ids.p1 = p1.partnerId;
  ids.a1 = insertOrg(server, p1.partnerId, 'Alpha One');
  ids.a2 = insertOrg(server, p1.partnerId, 'Alpha Two');
  ids.b1 = insertOrg(server, p2.partnerId, 'Bravo One');
  ids.s1 = insertSite(server, ids.a1, 'HQ');
  ids.s2 = insertSite(server, ids.a1, 'Branch');
  ids.sB = insertSite(server, ids.b1, 'Bravo HQ');
  ids.dev1 = insertDevice(ids.a1, ids.s1, 'hq-ws-01');
  ids.dev2 = insertDevice(ids.a1, ids.s2, 'branch-ws-02');
  ids.dev3 = insertDevice(ids.a1, null, 'unplaced-03');
  ids.devA2 = insertDevice(ids.a2, null, 'alpha-two-01');
  ids.devB = insertDevice(ids.b1, ids.sB, 'bravo-secret-host');

  await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'admin@a1.test');
  await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'nomfa@a1.test');
  await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'tech@a1.test');
  await insertOrgUser(server, ids.b1, ROLES.orgAdmin, 'admin@b1.test');
  // An auditor limited to site HQ, with exactly the two permissions the export needs.
  const auditorRole = insertOrgRole(server, ids.a1, 'Auditor', [
    ['devices', 'view'],
    ['audit', 'export'],
  ]);
  const auditor = await insertOrgUser(server, ids.a1, auditorRole, 'auditor@a1.test');
  db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
    JSON.stringify([ids.s1]),
    auditor,
  );
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'all@p1.test', { orgAccess: 'all' });
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'sel@p1.test', {
    orgAccess: 'selected',
    orgIds: [ids.a2],
  });
  tok.system = await signedToken(server, ADMIN.email);
  tok.orgAdmin = await signedToken(server, 'admin@a1.test');
  tok.noMfa = await signedToken(server, 'nomfa@a1.test', false);
  tok.orgTech = await signedToken(server, 'tech@a1.test');
  tok.orgAdminB = await signedToken(server, 'admin@b1.test');
  tok.siteAuditor = await signedToken(server, 'auditor@a1.test');
  tok.partnerAll = await signedToken(server, 'all@p1.test');
  tok.partnerSelected = await signedToken(server, 'sel@p1.test');
  apiKey = insertApiKey(server, ids.a1, ['*']).key;

  // Feature events. req1 carries values that a spreadsheet would execute or that CSV must quote.
  ids.req1 = insertRequest(ids.a1, ids.dev1, ids.s1, {
    status: 'actuating',
    riskLevel: 'high',
    subjectUsername: '+jdoe',
    path: 'C:\\Program Files\\a,b "quoted".exe',
    signer: '=HYPERLINK("http://evil.test","x")',
    decisionSource: 'human',
    assuranceLevel: 2,
    assuranceMethod: 'platform_authenticator',
  });
  ids.req2 = insertRequest(ids.a1, ids.dev2, ids.s2, {
    flowType: 'ai_tool_action',
    status: 'denied',
    riskLevel: 'critical',
    path: null,
    hash: null,
    signer: null,
    toolName: 'shell.exec',
    riskTier: 3,
    decisionSource: 'pam_rule',
    pamRuleId: randomUUID(),
    pamRuleName: 'Block shell',
  });
  ids.req3 = insertRequest(ids.a1, ids.dev3, null, { status: 'expired' });
  ids.reqA2 = insertRequest(ids.a2, ids.devA2, null);
  ids.reqB = insertRequest(ids.b1, ids.devB, ids.sB, { path: 'C:\\bravo\\secret.exe' });

  seqs.r1requested = insertEvent(ids.req1, { type: 'elevation.requested', occurredAt: W.from });
  seqs.bRequested = insertEvent(ids.reqB, { type: 'elevation.requested', occurredAt: at(W.from, MIN) });
  seqs.r1approved = insertEvent(ids.req1, {
    type: 'elevation.approved',
    occurredAt: at(W.from, 2 * MIN),
    status: 'approved',
    enforcementStatus: 'pending_dispatch',
    actorType: 'user',
    actorId: randomUUID(),
    actorName: '@alice',
    details: { reason: 'Installer\tfor "finance", approved' },
  });
  seqs.r1actuating = insertEvent(ids.req1, {
    type: 'elevation.actuating',
    occurredAt: at(W.from, 3 * MIN),
    status: 'actuating',
    enforcementStatus: 'dispatched',
    actorType: 'user',
    actorName: 'Alice',
  });
  seqs.r2requested = insertEvent(ids.req2, { type: 'elevation.requested', occurredAt: at(W.from, 4 * MIN) });
  seqs.r2denied = insertEvent(ids.req2, {
    type: 'elevation.denied',
    occurredAt: at(W.from, 5 * MIN),
    status: 'denied',
    actorType: 'system',
    details: { reason: '-line one\r\nline two', rule: 'x' },
  });
  seqs.r3requested = insertEvent(ids.req3, { type: 'elevation.requested', occurredAt: at(W.from, 6 * MIN) });
  seqs.a2requested = insertEvent(ids.reqA2, { type: 'elevation.requested', occurredAt: at(W.from, 6 * MIN) });
  seqs.r3expired = insertEvent(ids.req3, {
    type: 'elevation.expired',
    occurredAt: at(W.to, -1),
    status: 'expired',
    details: { reason: { nested: true } },
  });
  // On the window's end: excluded (from <= occurredAt < to). Before the start: excluded.
  seqs.r3atEnd = insertEvent(ids.req3, { type: 'elevation.revoked', occurredAt: W.to, status: 'revoked' });
  seqs.r3before = insertEvent(ids.req3, { type: 'elevation.requested', occurredAt: at(W.from, -1) });
  seqs.r1enforced = insertEvent(ids.req1, {
    type: 'elevation.enforcement_changed',
    occurredAt: at(W.from, 7 * MIN),
    status: 'actuating',
    enforcementStatus: 'active',
    actorType: 'agent',
  });

  // Bulk: 2,500 events of one A1 request in the June window, interleaved with Bravo events in the same window
  // and A1 events outside it, so the seqs of the export have gaps a naive offset would trip over.
  ids.bulk = insertRequest(ids.a1, ids.dev1, ids.s1);
  db.transaction(() => {
    for (let i = 0; i < 2500; i++) {
      bulkSeqs.push(
        insertEvent(ids.bulk, {
          type: i % 2 ? 'elevation.enforcement_changed' : 'elevation.requested',
          occurredAt: at(BULK.from, i * 10),
        }),
      );
      if (i % 97 === 0)
        insertEvent(ids.reqB, { type: 'elevation.requested', occurredAt: at(BULK.from, i * 10) });
      if (i % 89 === 0) insertEvent(ids.bulk, { type: 'elevation.requested', occurredAt: at(BULK.to, i) });
    }
  })();
  bulkSeqs = [...bulkSeqs].sort((a, b) => a - b);
});

afterAll(async () => {
  await server?.dispose();
});

const FEATURE_SEQS = () =>
  [
    seqs.r1requested,
    seqs.r1approved,
    seqs.r1actuating,
    seqs.r2requested,
    seqs.r2denied,
    seqs.r3requested,
    seqs.r3expired,
    seqs.r1enforced,
  ].map(Number);

describe('window rules', () => {
  it('refuses a missing, offset-less, malformed, reversed, empty or over-long window with EXPORT_WINDOW_INVALID', async () => {
    const code = 'EXPORT_WINDOW_INVALID';
    expectError(await get({ to: W.to }), 400, 'from is required (ISO 8601 date-time with offset)', code);
    expectError(await get({ from: W.from }), 400, 'to is required (ISO 8601 date-time with offset)', code);
    const offsetMsg = (f: string) =>
      `${f} must be an ISO 8601 date-time with offset, e.g. 2026-01-31T00:00:00Z`;
    expectError(await get({ from: '2025-03-01T00:00:00', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: W.from, to: '2025-03-02' }), 400, offsetMsg('to'), code);
    expectError(await get({ from: 'yesterday', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: '2025-02-30T00:00:00Z', to: W.to }), 400, offsetMsg('from'), code);
    expectError(await get({ from: W.from, to: W.from }), 400, 'from must be before to', code);
    expectError(await get({ from: W.to, to: W.from }), 400, 'from must be before to', code);
    // Equal instants in different offsets are still equal.
    expectError(
      await get({ from: '2025-03-01T02:00:00+02:00', to: '2025-03-01T00:00:00Z' }),
      400,
      'from must be before to',
      code,
    );
    const longTo = new Date(Date.parse(W.from) + 366 * 86_400_000 + 1).toISOString();
    expectError(
      await get({ from: W.from, to: longTo }),
      400,
      'The export window must be at most 366 days',
      code,
    );
  });

  it('accepts exactly 366 days and offsets other than Z; from is inclusive, to exclusive', async () => {
    const to366 = new Date(Date.parse(W.from) + 366 * 86_400_000).toISOString();
    const long = await get({ from: W.from, to: to366, format: 'jsonl', eventType: 'elevation.expired' });
    expect(long.status).toBe(200);
    expect(seqsOf(jsonl(long))).toEqual([seqs.r3expired]);

    const res = await get({
      from: '2025-03-01T01:00:00+01:00',
      to: '2025-03-02T05:30:00+05:30',
      format: 'jsonl',
    });
    expect(res.status).toBe(200);
    const got = seqsOf(jsonl(res));
    expect(got).toEqual(FEATURE_SEQS());
    expect(got).not.toContain(seqs.r3atEnd);
    expect(got).not.toContain(seqs.r3before);
    expect(got).not.toContain(seqs.a2requested);
  });
});

describe('organization rules', () => {
  it('requires orgId from partner and system callers', async () => {
    expectError(await get({ ...W }, tok.system), 400, 'orgId is required for system scope');
    expectError(await get({ ...W }, tok.partnerAll), 400, 'orgId is required for partner scope');
    expectError(await get({ ...W, orgId: 'nope' }, tok.system), 400, 'orgId: orgId must be a UUID');
  });

  it('exports an organization in scope for system and partner callers, 404 outside it', async () => {
    const sys = await get({ ...W, orgId: ids.b1, format: 'jsonl' }, tok.system);
    expect(sys.status).toBe(200);
    expect(jsonl(sys).map((r) => r.orgId)).toEqual([ids.b1]);

    const partner = await get({ ...W, orgId: ids.a1, format: 'jsonl' }, tok.partnerAll);
    expect(partner.status).toBe(200);
    expect(seqsOf(jsonl(partner))).toEqual(FEATURE_SEQS());

    expectError(await get({ ...W, orgId: ids.b1 }, tok.partnerAll), 404, 'Organization not found');
    expectError(await get({ ...W, orgId: ids.a1 }, tok.partnerSelected), 404, 'Organization not found');
    expectError(await get({ ...W, orgId: randomUUID() }, tok.system), 404, 'Organization not found');
    const selected = await get({ ...W, orgId: ids.a2, format: 'jsonl' }, tok.partnerSelected);
    expect(seqsOf(jsonl(selected))).toEqual([seqs.a2requested]);
  });

  it('organization callers export their own organization; another orgId is 403', async () => {
    const own = await get({ ...W, format: 'jsonl' });
    expect(seqsOf(jsonl(own))).toEqual(FEATURE_SEQS());
    const explicit = await get({ ...W, orgId: ids.a1, format: 'jsonl' });
    expect(seqsOf(jsonl(explicit))).toEqual(FEATURE_SEQS());
    expectError(await get({ ...W, orgId: ids.b1 }), 403, 'Access to this organization denied');
    expectError(await get({ ...W, orgId: ids.a2 }), 403, 'Access to this organization denied');
  });

  it('never shows another tenant its events: Bravo sees only Bravo, Alpha never sees Bravo', async () => {
    const bravo = await get({ ...BULK, format: 'jsonl' }, tok.orgAdminB);
    const rows = jsonl(bravo);
    expect(rows.length).toBe(26); // i % 97 === 0 for i < 2500
    expect(new Set(rows.map((r) => r.orgId))).toEqual(new Set([ids.b1]));
    expect(new Set(rows.map((r) => r.deviceHostname))).toEqual(new Set(['bravo-secret-host']));

    const alpha = await get({ ...W, format: 'csv' });
    expect(alpha.body).not.toContain('bravo');
    expect(alpha.body).not.toContain(ids.b1);
  });
});

describe('query validation', () => {
  it('refuses an unknown eventType or format', async () => {
    const res = await get({ ...W, eventType: 'elevation.exploded' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.error).toMatch(/^eventType: eventType must be one of elevation\.requested, /);
    const fmt = await get({ ...W, format: 'xlsx' });
    expectError(fmt, 400, 'format: format must be csv or jsonl', 'VALIDATION_ERROR');
  });

  it('keeps limit within 1-1000', async () => {
    const msg = 'limit: limit must be an integer from 1 to 1000';
    for (const limit of ['0', '1001', '-1', '1.5', 'abc', '', '99999999']) {
      expectError(await get({ ...W, limit }), 400, msg, 'VALIDATION_ERROR');
    }
    const one = await get({ ...W, limit: 1, format: 'jsonl' });
    expect(one.status).toBe(200);
    expect(seqsOf(jsonl(one))).toEqual([seqs.r1requested]);
    expect(one.headers.get('x-row-count')).toBe('1');
    expect(one.headers.get('x-has-more')).toBe('true');
    const max = await get({ ...BULK, limit: 1000, format: 'jsonl' });
    expect(jsonl(max)).toHaveLength(1000);
  });

  it('refuses malformed filter ids', async () => {
    expectError(await get({ ...W, deviceId: '1' }), 400, 'deviceId: deviceId must be a UUID');
    expectError(await get({ ...W, siteId: 'x' }), 400, 'siteId: siteId must be a UUID');
    expectError(
      await get({ ...W, elevationRequestId: 'x' }),
      400,
      'elevationRequestId: elevationRequestId must be a UUID',
    );
  });
});

describe('paging with the cursor', () => {
  it('pages through 2,500 events with no gap and no duplicate, and says when the export is final', async () => {
    const pages: ApiResponse[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const res = await get({ ...BULK, format: 'jsonl', cursor });
      expect(res.status).toBe(200);
      pages.push(res);
      if (res.headers.get('x-has-more') !== 'true') break;
      cursor = res.headers.get('x-next-cursor') ?? '';
      expect(cursor).not.toBe('');
    }
    expect(pages.map((p) => p.headers.get('x-row-count'))).toEqual(['1000', '1000', '500']);
    expect(pages.map((p) => p.headers.get('x-has-more'))).toEqual(['true', 'true', 'false']);
    expect(pages.map((p) => p.headers.get('x-window-complete'))).toEqual(['false', 'false', 'true']);
    expect(pages.map((p) => p.headers.get('x-next-cursor') === '')).toEqual([false, false, true]);
    for (const p of pages) {
      expect(p.headers.get('x-export-schema-version')).toBe('1');
      // The window is in the past: settled through its end.
      expect(p.headers.get('x-settled-through')).toBe(BULK.to);
      expect(Number(p.headers.get('x-row-count'))).toBe(jsonl(p).length);
    }
    const got = pages.flatMap((p) => seqsOf(jsonl(p)));
    expect(got).toEqual(bulkSeqs);
    expect(new Set(got).size).toBe(2500);
  });

  it('a page that ends exactly on the last row says there is no more; limit and format may change between pages', async () => {
    const first = await get({ ...BULK, format: 'csv', limit: 750 });
    expect(first.headers.get('x-has-more')).toBe('true');
    const firstRows = csvObjects(first.body);
    expect(firstRows).toHaveLength(750);
    const second = await get({
      ...BULK,
      format: 'jsonl',
      limit: 1000,
      cursor: first.headers.get('x-next-cursor')!,
    });
    expect(second.headers.get('x-has-more')).toBe('true');
    const third = await get({
      ...BULK,
      limit: 750,
      format: 'jsonl',
      cursor: second.headers.get('x-next-cursor')!,
    });
    expect(third.headers.get('x-row-count')).toBe('750');
    expect(third.headers.get('x-has-more')).toBe('false');
    expect(third.headers.get('x-next-cursor')).toBe('');
    expect(third.headers.get('x-window-complete')).toBe('true');
    expect([...seqsOf(firstRows), ...seqsOf(jsonl(second)), ...seqsOf(jsonl(third))]).toEqual(bulkSeqs);
  });

  it('an open window keeps a cursor on its last page and later yields exactly the events written since', async () => {
    const now = Date.now();
    const open = { from: new Date(now - 60 * MIN).toISOString(), to: new Date(now + 60 * MIN).toISOString() };
    const live = insertRequest(ids.a1, ids.dev2, ids.s2);
    const before = insertEvent(live, {
      type: 'elevation.requested',
      occurredAt: new Date(now - MIN).toISOString(),
    });

    const first = await get({ ...open, format: 'jsonl' });
    expect(seqsOf(jsonl(first))).toEqual([before]);
    expect(first.headers.get('x-has-more')).toBe('false');
    expect(first.headers.get('x-window-complete')).toBe('false');
    const settled = Date.parse(first.headers.get('x-settled-through')!);
    expect(settled).toBeLessThanOrEqual(Date.now() - 2000);
    expect(settled).toBeGreaterThan(now - 10_000);
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).not.toBe('');

    // Nothing new yet: an empty page that still hands back a cursor.
    const idle = await get({ ...open, format: 'jsonl', cursor });
    expect(idle.headers.get('x-row-count')).toBe('0');
    expect(idle.body ?? '').toBe('');
    expect(idle.headers.get('x-next-cursor')).not.toBe('');

    const after = insertEvent(live, {
      type: 'elevation.approved',
      occurredAt: new Date().toISOString(),
      status: 'approved',
    });
    const resumed = await get({ ...open, format: 'jsonl', cursor: idle.headers.get('x-next-cursor')! });
    expect(seqsOf(jsonl(resumed))).toEqual([after]);
    expect(resumed.headers.get('x-window-complete')).toBe('false');
  });

  it('refuses a tampered, forged or foreign cursor with 400 Invalid cursor', async () => {
    const first = await get({ ...BULK, format: 'jsonl', limit: 10 });
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).not.toBe('');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const invalid = (res: ApiResponse) => expectError(res, 400, 'Invalid cursor', 'INVALID_CURSOR');

    invalid(await get({ ...BULK, cursor: flip(cursor, cursor.length - 3) }));
    invalid(await get({ ...BULK, cursor: flip(cursor, 10) }));
    invalid(await get({ ...BULK, cursor: 'garbage' }));
    invalid(await get({ ...BULK, cursor: Buffer.from('{"seq":10}').toString('base64url') }));
    invalid(await get({ ...BULK, cursor: 'x'.repeat(5000) }));
    // Foreign: another window, another filter, another organization, another caller.
    invalid(await get({ ...BULK, to: '2025-06-01T12:00:00Z', cursor }));
    invalid(await get({ ...BULK, eventType: 'elevation.requested', cursor }));
    invalid(await get({ ...BULK, deviceId: ids.dev1, cursor }));
    invalid(await get({ ...BULK, orgId: ids.a1, cursor }, tok.partnerAll));
    invalid(await get({ ...BULK, cursor }, tok.orgAdminB));
    // The same query in another offset is the same query.
    const same = await get({
      from: '2025-06-01T02:00:00+02:00',
      to: BULK.to,
      format: 'jsonl',
      limit: 10,
      cursor,
    });
    expect(same.status).toBe(200);
    expect(seqsOf(jsonl(same))).toEqual(bulkSeqs.slice(10, 20));
    // An empty cursor (an echoed empty X-Next-Cursor) starts from the beginning.
    const restart = await get({ ...BULK, format: 'jsonl', limit: 10, cursor: '' });
    expect(seqsOf(jsonl(restart))).toEqual(bulkSeqs.slice(0, 10));
  });
});

describe('formats', () => {
  it('CSV: header row, RFC 4180 quoting, formula neutralizing, download headers', async () => {
    const res = await get({ ...W, orgId: ids.a1 }, tok.system);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="elevation-audit-${ids.a1}-20250301T000000Z.csv"`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = res.body;
    expect(text.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(text.endsWith('\r\n')).toBe(true);
    // Raw quoting: comma and quotes inside a quoted field, quotes doubled.
    expect(text).toContain('"C:\\Program Files\\a,b ""quoted"".exe"');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);

    const rows = csvObjects(text);
    expect(seqsOf(rows)).toEqual(FEATURE_SEQS());
    const approved = rows.find((r) => Number(r.seq) === seqs.r1approved)!;
    expect(approved).toMatchObject({
      eventType: 'elevation.approved',
      occurredAt: at(W.from, 2 * MIN),
      orgId: ids.a1,
      siteId: ids.s1,
      deviceId: ids.dev1,
      deviceHostname: 'hq-ws-01',
      elevationRequestId: ids.req1,
      flowType: 'uac_intercept',
      status: 'approved',
      enforcementStatus: 'pending_dispatch',
      actorType: 'user',
      actorName: "'@alice",
      subjectUsername: "'+jdoe",
      targetExecutablePath: 'C:\\Program Files\\a,b "quoted".exe',
      targetExecutableHash: 'a'.repeat(64),
      targetExecutableSigner: `'=HYPERLINK("http://evil.test","x")`,
      toolName: '',
      riskTier: '',
      riskLevel: 'high',
      decisionSource: 'human',
      assuranceLevel: '2',
      assuranceMethod: 'platform_authenticator',
      reason: 'Installer\tfor "finance", approved',
    });
    const denied = rows.find((r) => Number(r.seq) === seqs.r2denied)!;
    // Starts with `-` and holds CR LF: neutralized and quoted, line break kept inside the field.
    expect(denied.reason).toBe("'-line one\r\nline two");
    expect(denied).toMatchObject({ flowType: 'ai_tool_action', toolName: 'shell.exec', riskTier: '3' });
    expect(denied.pamRuleName).toBe('Block shell');
    // A reason that is not text or a number is not exported.
    expect(rows.find((r) => Number(r.seq) === seqs.r3expired)!.reason).toBe('');
    // Events without a site: empty siteId.
    expect(rows.find((r) => Number(r.seq) === seqs.r3requested)!.siteId).toBe('');
  });

  it('JSONL: one object per line with every column in order, values unchanged', async () => {
    const res = await get({ ...W, format: 'jsonl' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="elevation-audit-${ids.a1}-20250301T000000Z.jsonl"`,
    );
    const text = res.body as unknown as string;
    expect(text.endsWith('\n')).toBe(true);
    const rows = jsonl(res);
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(Object.keys(row)).toEqual([...EXPORT_COLUMNS]);
    const approved = rows.find((r) => r.seq === seqs.r1approved)!;
    expect(approved).toMatchObject({
      targetExecutableSigner: '=HYPERLINK("http://evil.test","x")',
      subjectUsername: '+jdoe',
      actorName: '@alice',
      riskTier: null,
      assuranceLevel: 2,
      reason: 'Installer\tfor "finance", approved',
    });
    const denied = rows.find((r) => r.seq === seqs.r2denied)!;
    expect(denied).toMatchObject({
      riskTier: 3,
      reason: '-line one\r\nline two',
      targetExecutablePath: null,
    });
  });

  it('an empty page is a header-only CSV or an empty JSONL body', async () => {
    const empty = { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' };
    const csv = await get(empty);
    expect(csv.status).toBe(200);
    expect(csv.body).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
    expect(csv.headers.get('x-row-count')).toBe('0');
    expect(csv.headers.get('x-window-complete')).toBe('true');
    expect(csv.headers.get('x-next-cursor')).toBe('');
    const lines = await get({ ...empty, format: 'jsonl' });
    expect(lines.body ?? '').toBe('');
  });
});

describe('filters and site restriction', () => {
  const only = async (params: Record<string, string>, token = tok.orgAdmin) => {
    const res = await get({ ...W, format: 'jsonl', ...params }, token);
    expect(res.status).toBe(200);
    return seqsOf(jsonl(res));
  };

  it('filters by site, device, request and event type, alone and combined', async () => {
    expect(await only({ siteId: ids.s1 })).toEqual([
      seqs.r1requested,
      seqs.r1approved,
      seqs.r1actuating,
      seqs.r1enforced,
    ]);
    expect(await only({ siteId: ids.s2 })).toEqual([seqs.r2requested, seqs.r2denied]);
    expect(await only({ deviceId: ids.dev3 })).toEqual([seqs.r3requested, seqs.r3expired]);
    expect(await only({ elevationRequestId: ids.req2 })).toEqual([seqs.r2requested, seqs.r2denied]);
    expect(await only({ eventType: 'elevation.requested' })).toEqual([
      seqs.r1requested,
      seqs.r2requested,
      seqs.r3requested,
    ]);
    expect(await only({ eventType: 'elevation.requested', siteId: ids.s2 })).toEqual([seqs.r2requested]);
    expect(await only({ deviceId: ids.devB })).toEqual([]);
    expect(await only({ elevationRequestId: ids.reqB })).toEqual([]);
  });

  it('refuses a site outside the organization or the caller', async () => {
    expectError(await get({ ...W, siteId: ids.sB }), 403, 'Access to this site denied');
    expectError(await get({ ...W, orgId: ids.a1, siteId: ids.sB }, tok.system), 404, 'Site not found');
    expectError(await get({ ...W, siteId: randomUUID() }), 404, 'Site not found');
  });

  it('a site-restricted auditor sees only the events of their sites', async () => {
    expect(await only({}, tok.siteAuditor)).toEqual([
      seqs.r1requested,
      seqs.r1approved,
      seqs.r1actuating,
      seqs.r1enforced,
    ]);
    expect(await only({ deviceId: ids.dev2 }, tok.siteAuditor)).toEqual([]);
    expectError(await get({ ...W, siteId: ids.s2 }, tok.siteAuditor), 403, 'Access to this site denied');
  });
});

describe('access', () => {
  it('needs audit:export and devices:read, an MFA session, and a user session', async () => {
    const tech = await get({ ...W }, tok.orgTech);
    expectError(tech, 403, 'Insufficient permissions', 'PERMISSION_DENIED');
    expect(tech.body.required).toBe('audit:export');
    expectError(
      await get({ ...W }, tok.noMfa),
      403,
      'Multi-factor authentication required for this action',
      'MFA_REQUIRED',
    );
    const key = await server.api.request('GET', exportUrl({ ...W }), { headers: { 'x-api-key': apiKey } });
    expectError(key, 401, 'Authentication required', 'AUTH_REQUIRED');
    const none = await server.api.get(exportUrl({ ...W }));
    expect(none.status).toBe(401);
  });

  it('records pam.elevation_audit.export with the filters and the row count, never the rows', async () => {
    const res = await get({ ...W, eventType: 'elevation.approved', format: 'jsonl' });
    expect(res.status).toBe(200);
    await auditSettled(server);
    const entry = server.context.db
      .prepare(
        "SELECT * FROM audit_logs WHERE action = 'pam.elevation_audit.export' ORDER BY seq DESC LIMIT 1",
      )
      .get() as {
      org_id: string;
      actor_email: string;
      resource_type: string;
      details: string;
      result: string;
    };
    expect(entry).toMatchObject({
      org_id: ids.a1,
      actor_email: 'admin@a1.test',
      resource_type: 'elevation_audit',
      result: 'success',
    });
    const details = JSON.parse(entry.details) as Record<string, unknown>;
    expect(details).toMatchObject({
      format: 'jsonl',
      from: W.from,
      to: W.to,
      eventType: 'elevation.approved',
      siteId: null,
      deviceId: null,
      elevationRequestId: null,
      limit: 1000,
      continued: false,
      rowCount: 1,
      hasMore: false,
    });
    expect(entry.details).not.toContain('HYPERLINK');
    expect(entry.details).not.toContain('alice');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await server.api.get('/openapi.json');
    expect(
      doc.body.paths['/api/v1/pam/elevation-audit/export'].get.parameters.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(expect.arrayContaining(['from', 'to', 'orgId', 'format', 'eventType', 'limit', 'cursor']));
  });
});
