import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BusMessage } from '../../server/events/bus';
import {
  insertApiKey,
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  ROLES,
  signedToken,
} from './seed';
import { startServer, type ApiResponse, type TestServer } from './server';

// The world of the /devices, /groups and /tags suites (spec 3 catalog and device list limits; spec 2: devices outside the caller's
// organizations are 404). The world: partner P1 owns organizations A1 (sites S1, S2) and A2; partner P2 owns B1.
// Callers: the system administrator; P1 users with organization access all, selected (A1) and none; A1's
// administrator, technician, read-only user, a technician restricted to site S1, an administrator whose session
// did not pass MFA; API keys of A1 (all scopes, read-only) and of B1.
//
// Shared by the device suites (test/integration/devices-*.test.ts). The bindings are live: a suite calls
// useDevicesWorld() once at its top and reads them inside its tests.

export type Caller =
  | 'system'
  | 'partnerAll'
  | 'partnerSelected'
  | 'partnerNone'
  | 'orgAdmin'
  | 'orgTech'
  | 'orgReadOnly'
  | 'siteTech'
  | 'noMfa'
  | 'keyA1'
  | 'keyA1Read'
  | 'keyB1';

export let server: TestServer;
export const auth = {} as Record<Caller, { token?: string; headers?: Record<string, string> }>;
export const ids = { p1: '', p2: '', a1: '', a2: '', b1: '', s1: '', s2: '', sb: '' };
/** Devices of the isolation matrix. */
export const dev = { a1s1: '', a1s2: '', a1none: '', a2: '', b1: '' };

export const now = Date.now();
export const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();

export interface DeviceFields {
  siteId?: string | null;
  hostname?: string;
  displayName?: string | null;
  status?: string;
  osType?: string;
  lastUser?: string | null;
  cpuPercent?: number | null;
  lastSeenAt?: string | null;
  enrolledAt?: string;
  agentVersion?: string;
  tags?: string[];
  customFields?: Record<string, unknown>;
}

let hostCounter = 0;

/** A device row written straight into SQLite (enrollment is the agents module's business). */
export function insertDevice(orgId: string, f: DeviceFields = {}): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  const db = server.context.db;
  db.prepare(
    `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, display_name, os_type,
       os_version, architecture, agent_version, status, last_user, cpu_percent, custom_fields, enrolled_at,
       last_seen_at, decommissioned_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'test os', 'x64', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    orgId,
    f.siteId ?? null,
    randomUUID(),
    randomUUID(),
    f.hostname ?? `host-${++hostCounter}`,
    f.displayName ?? null,
    f.osType ?? 'windows',
    f.agentVersion ?? '1.0.0',
    f.status ?? 'online',
    f.lastUser ?? null,
    f.cpuPercent ?? null,
    JSON.stringify(f.customFields ?? {}),
    f.enrolledAt ?? at,
    f.lastSeenAt === undefined ? at : f.lastSeenAt,
    f.status === 'decommissioned' ? at : null,
    at,
    at,
  );
  for (const tag of f.tags ?? []) {
    db.prepare('INSERT INTO device_tags (device_id, tag) VALUES (?, ?)').run(id, tag);
  }
  return id;
}

export const deviceRow = (id: string) =>
  server.context.db.prepare('SELECT * FROM devices WHERE id = ?').get(id) as Record<string, unknown>;

export function call(caller: Caller, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const a = auth[caller];
  return server.api.request(method, path, {
    ...(a.token ? { token: a.token } : {}),
    ...(a.headers ? { headers: a.headers } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

export const get = (caller: Caller, path: string) => call(caller, 'GET', path);

export function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

/** Bus messages of one event, collected from now on. */
export function collect(event: 'device.updated' | 'device.decommissioned'): BusMessage[] {
  const seen: BusMessage[] = [];
  server.context.bus.on(event, (m) => seen.push(m as BusMessage));
  return seen;
}

export function useDevicesWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    const p1 = insertPartner(server, { name: 'Northwind MSP' });
    const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
    ids.p1 = p1.partnerId;
    ids.p2 = p2.partnerId;
    ids.a1 = insertOrg(server, ids.p1, 'Alpha One');
    ids.a2 = insertOrg(server, ids.p1, 'Alpha Two');
    ids.b1 = insertOrg(server, ids.p2, 'Bravo One');
    ids.s1 = insertSite(server, ids.a1, 'Alpha HQ');
    ids.s2 = insertSite(server, ids.a1, 'Alpha Branch');
    ids.sb = insertSite(server, ids.b1, 'Bravo HQ');

    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'all@p1.test', { orgAccess: 'all' });
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'selected@p1.test', {
      orgAccess: 'selected',
      orgIds: [ids.a1],
    });
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
    await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'admin@a1.test');
    await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'tech@a1.test');
    await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'readonly@a1.test');
    const siteTech = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'site@a1.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
      .run(JSON.stringify([ids.s1]), siteTech);
    await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'nomfa@a1.test');

    const token = async (email: string, mfa = true) => ({ token: await signedToken(server, email, mfa) });
    const key = (orgId: string, scopes?: string[]) => ({
      headers: { 'x-api-key': insertApiKey(server, orgId, scopes).key },
    });
    auth.system = await token('admin@gatehouse.test');
    auth.partnerAll = await token('all@p1.test');
    auth.partnerSelected = await token('selected@p1.test');
    auth.partnerNone = await token('none@p1.test');
    auth.orgAdmin = await token('admin@a1.test');
    auth.orgTech = await token('tech@a1.test');
    auth.orgReadOnly = await token('readonly@a1.test');
    auth.siteTech = await token('site@a1.test');
    auth.noMfa = await token('nomfa@a1.test', false);
    auth.keyA1 = key(ids.a1);
    auth.keyA1Read = key(ids.a1, ['devices:read']);
    auth.keyB1 = key(ids.b1);

    dev.a1s1 = insertDevice(ids.a1, { siteId: ids.s1, hostname: 'iso-a1s1' });
    dev.a1s2 = insertDevice(ids.a1, { siteId: ids.s2, hostname: 'iso-a1s2' });
    dev.a1none = insertDevice(ids.a1, { hostname: 'iso-a1none' });
    dev.a2 = insertDevice(ids.a2, { hostname: 'iso-a2' });
    dev.b1 = insertDevice(ids.b1, { siteId: ids.sb, hostname: 'iso-b1' });
  });

  afterAll(async () => {
    await server?.dispose();
  });
}
