import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
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
} from './seed';
import { ADMIN, startServer, type ApiResponse, type TestServer } from './server';

// The world of the PAM audit export suites (test/integration/pam-export-*.test.ts): partners, organizations,
// sites, devices, elevation requests and their events written straight into SQLite, as the ingest writes them:
// a feature window of named events in March and a bulk window of 2,500 events in June, and callers of every
// kind. The bindings are live: a suite calls usePamExportWorld() once at its top and reads them in its tests.

export let server: TestServer;
export const ids = {
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
export const tok = {
  system: '',
  orgAdmin: '',
  orgAdminB: '',
  orgTech: '',
  siteAuditor: '',
  noMfa: '',
  partnerAll: '',
  partnerSelected: '',
};
export let apiKey = '';

// The feature window: one day in March. The bulk window: one day in June.
export const W = { from: '2025-03-01T00:00:00.000Z', to: '2025-03-02T00:00:00.000Z' };
export const BULK = { from: '2025-06-01T00:00:00.000Z', to: '2025-06-02T00:00:00.000Z' };
export const at = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();
export const MIN = 60_000;

/** Expected seqs of the feature events, by name. */
export const seqs: Record<string, number> = {};
export let bulkSeqs: number[] = [];

export function insertDevice(orgId: string, siteId: string | null, hostname: string): string {
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

export interface RequestFields {
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

export function insertRequest(
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

export interface EventFields {
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
export function insertEvent(requestId: string, e: EventFields): number {
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

export const exportUrl = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return `/pam/elevation-audit/export?${q.toString()}`;
};
export const get = (params: Record<string, string | number | undefined>, token = tok.orgAdmin) =>
  server.api.get(exportUrl(params), token);

export function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

export const seqsOf = (rows: Array<Record<string, unknown>>) => rows.map((r) => Number(r.seq));

export function usePamExportWorld(): void {
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
    seqs.r2requested = insertEvent(ids.req2, {
      type: 'elevation.requested',
      occurredAt: at(W.from, 4 * MIN),
    });
    seqs.r2denied = insertEvent(ids.req2, {
      type: 'elevation.denied',
      occurredAt: at(W.from, 5 * MIN),
      status: 'denied',
      actorType: 'system',
      details: { reason: '-line one\r\nline two', rule: 'x' },
    });
    seqs.r3requested = insertEvent(ids.req3, {
      type: 'elevation.requested',
      occurredAt: at(W.from, 6 * MIN),
    });
    seqs.a2requested = insertEvent(ids.reqA2, {
      type: 'elevation.requested',
      occurredAt: at(W.from, 6 * MIN),
    });
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
}

export const FEATURE_SEQS = () =>
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
