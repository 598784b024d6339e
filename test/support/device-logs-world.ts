import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
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

// Stored device logs (spec 2, Agent and device logs): GET /devices/:id/diagnostic-logs (level list, component,
// since/until, search, newest first, limit 1000) and GET /devices/:id/eventlogs (category, level, source, dates,
// limit 500). Rows are written straight into SQLite so every filter can be checked against known data; one test
// goes through the agent's own submission endpoints to prove the two sides agree.
//
// Shared by the device log suites (test/integration/device-logs-*.test.ts). The bindings are live: a suite calls
// useDeviceLogsWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export const ids = { p1: '', a1: '', a2: '', b1: '', s1: '', s2: '', device: '', other: '', siteTwo: '' };
export const tok = { admin: '', readOnly: '', partnerNone: '', partnerSelected: '', siteTech: '' };
export const keys = { a1: '', b1: '' };

export const base = Date.parse('2026-03-01T12:00:00.000Z');
export const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

export function insertDevice(orgId: string, siteId: string | null): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO devices (id, org_id, site_id, agent_id, agent_token_hash, hostname, os_type, os_version,
         architecture, agent_version, enrolled_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'windows', 'Windows 11', 'x64', '1.0.0', ?, ?, ?)`,
    )
    .run(id, orgId, siteId, randomUUID(), randomUUID(), `logs-${id.slice(0, 8)}`, now, now, now);
  return id;
}

export function insertDiagnostic(
  deviceId: string,
  orgId: string,
  e: { minutes: number; level: string; component: string; message: string; fields?: object },
): void {
  server.context.db
    .prepare(
      `INSERT INTO diagnostic_logs (id, device_id, org_id, timestamp, level, component, message, fields,
         agent_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '1.0.0', ?)`,
    )
    .run(
      randomUUID(),
      deviceId,
      orgId,
      at(e.minutes),
      e.level,
      e.component,
      e.message,
      JSON.stringify(e.fields ?? {}),
      new Date().toISOString(),
    );
}

export function insertEvent(
  deviceId: string,
  orgId: string,
  e: {
    minutes: number;
    level: string;
    category: string;
    source: string;
    eventId: string | null;
    message: string;
  },
): void {
  server.context.db
    .prepare(
      `INSERT INTO device_event_logs (id, device_id, org_id, timestamp, level, category, source, event_id,
         message, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{"k":1}', ?)`,
    )
    .run(
      randomUUID(),
      deviceId,
      orgId,
      at(e.minutes),
      e.level,
      e.category,
      e.source,
      e.eventId,
      e.message,
      new Date().toISOString(),
    );
}

export const get = (path: string, token = tok.admin) => server.api.get(path, token);
export const getWithKey = (path: string, key: string) =>
  server.api.request('GET', path, { headers: { 'x-api-key': key } });

export function expectError(res: ApiResponse, status: number, error: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
}

export const messages = (res: ApiResponse) =>
  (res.body.data as Array<{ message: string }>).map((e) => e.message);

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function useDeviceLogsWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    const p1 = insertPartner(server, { name: 'Northwind MSP' });
    const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
    ids.p1 = p1.partnerId;
    ids.a1 = insertOrg(server, ids.p1, 'Alpha One');
    ids.a2 = insertOrg(server, ids.p1, 'Alpha Two');
    ids.b1 = insertOrg(server, p2.partnerId, 'Bravo One');
    ids.s1 = insertSite(server, ids.a1, 'HQ');
    ids.s2 = insertSite(server, ids.a1, 'Branch');
    ids.device = insertDevice(ids.a1, ids.s1);
    ids.siteTwo = insertDevice(ids.a1, ids.s2);
    ids.other = insertDevice(ids.a2, null);

    await insertOrgUser(server, ids.a1, ROLES.orgAdmin, 'admin@a1.test');
    await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'ro@a1.test');
    const siteTech = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'site@a1.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
      .run(JSON.stringify([ids.s1]), siteTech);
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
    await insertPartnerUser(server, ids.p1, p1.adminRoleId, 'sel@p1.test', {
      orgAccess: 'selected',
      orgIds: [ids.a2],
    });
    tok.admin = await signedToken(server, 'admin@a1.test');
    tok.readOnly = await signedToken(server, 'ro@a1.test', false);
    tok.siteTech = await signedToken(server, 'site@a1.test');
    tok.partnerNone = await signedToken(server, 'none@p1.test');
    tok.partnerSelected = await signedToken(server, 'sel@p1.test');
    keys.a1 = insertApiKey(server, ids.a1, ['devices:read']).key;
    keys.b1 = insertApiKey(server, ids.b1).key;

    const d = (minutes: number, level: string, component: string, message: string) =>
      insertDiagnostic(ids.device, ids.a1, { minutes, level, component, message, fields: { n: minutes } });
    d(0, 'info', 'heartbeat', 'heartbeat sent');
    d(1, 'debug', 'heartbeat', 'payload 512 bytes');
    d(2, 'warn', 'updater', 'checksum mismatch, keeping 1.0.0');
    d(3, 'error', 'updater', 'download failed: 100% of retries_used');
    d(4, 'info', 'eventlog', 'collected 12 events');
    d(5, 'error', 'websocket', 'connection reset');
    insertDiagnostic(ids.other, ids.a2, {
      minutes: 3,
      level: 'error',
      component: 'updater',
      message: 'other device',
    });

    const e = (
      minutes: number,
      level: string,
      category: string,
      source: string,
      eventId: string | null,
      message: string,
    ) => insertEvent(ids.device, ids.a1, { minutes, level, category, source, eventId, message });
    e(0, 'info', 'system', 'Service Control Manager', '7036', 'service entered the running state');
    e(1, 'warning', 'application', 'Application Error', '1000', 'faulting application');
    e(2, 'error', 'system', 'disk', '7', 'bad block');
    e(3, 'critical', 'security', 'Microsoft-Windows-Security-Auditing', '4625', 'logon failure');
    e(4, 'info', 'hardware', 'disk', '153', 'retried IO');
    e(5, 'error', 'application', 'Application Error', '1001', 'crash report');
  });

  afterAll(async () => {
    await server?.dispose();
  });
}
