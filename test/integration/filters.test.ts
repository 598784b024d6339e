import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import { insertFleet, type Fleet, type FleetDevice } from '../support/fleet';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';
import { insertOrgUser, mfaToken, PASSWORD, ROLES } from '../support/seed';
import { auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';

// Saved filters (spec 2): every operator of every field type evaluated by the server against a seeded fleet and
// compared with an expectation computed here from the seeded records (the oracle), nested groups, the /filters
// CRUD and previews, the scope matrix and the audit trail. The tenant tree and callers come from
// test/support/key-callers.ts: P1 owns A1 and A2, P2 owns B1.

let server: TestServer;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;
let fleet: Fleet;
let readOnly: string;
let keyRead: string;
let keyWrite: string;

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
  fleet = insertFleet(server.context.db, { orgIds: [ids.a1, ids.a2, ids.b1], count: 96, seed: 42 });
  await insertOrgUser(server, ids.a1, ROLES.orgReadOnly, 'ro@a1.test');
  readOnly = await mfaToken(server, 'ro@a1.test', PASSWORD);
  keyRead = await createKey(ids.a1, ['devices:read']);
  keyWrite = await createKey(ids.a1, ['devices:read', 'devices:write']);
});

afterAll(async () => {
  await server.dispose();
});

// ---- helpers ----------------------------------------------------------------------------------------------------

async function createKey(orgId: string, scopes: string[]): Promise<string> {
  const res = await server.api.post(
    '/api-keys',
    { orgId, name: `filters ${scopes.join(' ')}`, scopes },
    tok.system,
  );
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

type Caller = { token: string } | { key: string };
const callerOptions = (caller: Caller) =>
  'token' in caller ? { token: caller.token } : { headers: { 'x-api-key': caller.key } };

const call = (method: string, path: string, caller: Caller, body?: unknown) =>
  server.api.request(method, path, { ...callerOptions(caller), ...(body !== undefined ? { body } : {}) });

const group = (operator: 'AND' | 'OR', ...conditions: Array<FilterCondition | FilterConditionGroup>) => ({
  operator,
  conditions,
});

interface PreviewBody {
  data: {
    totalCount: number;
    devices: Array<{
      id: string;
      hostname: string;
      displayName: string | null;
      osType: string;
      status: string;
      lastSeenAt: string | null;
    }>;
    evaluatedAt: string;
  };
}

async function preview(conditions: unknown, caller: Caller = { token: tok.system }, limit = 100) {
  return call('POST', '/filters/preview', caller, { conditions, limit }) as Promise<ApiResponse<PreviewBody>>;
}

function expectError(res: ApiResponse, status: number, error: string | RegExp, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
  if (code) expect(res.body.code).toBe(code);
}

const sorted = (list: string[]) => [...list].sort();
const live = () => fleet.devices.filter((d) => d.status !== 'decommissioned');

// ---- the oracle -------------------------------------------------------------------------------------------------

/** SQLite's LIKE folds ASCII letters only; so does the expectation. */
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const has = (s: string | null | undefined, sub: string) =>
  typeof s === 'string' && fold(s).includes(fold(sub));
const ms = (iso: string | null | undefined) => (typeof iso === 'string' ? Date.parse(iso) : null);
const DAY = 86_400_000;
const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
const monthsAgo = (now: number, n: number) => {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.getTime();
};
const daysSince = (now: number, iso: string | null) => (iso === null ? null : (now - Date.parse(iso)) / DAY);
const num = (v: unknown) => (typeof v === 'number' ? v : null);

interface Case {
  name: string;
  condition: FilterCondition;
  match: (d: FleetDevice, now: number) => boolean;
  /** The expectation may select no device (or every one) by design. */
  trivial?: boolean;
}

const c = (
  field: string,
  operator: string,
  value: unknown,
  match: Case['match'],
  trivial?: boolean,
): Case => ({
  name: `${field} ${operator}${value === undefined ? '' : ` ${JSON.stringify(value)}`}`,
  condition: value === undefined ? { field, operator } : { field, operator, value },
  match,
  trivial,
});

/** Values picked from the seeded data so that equality cases select something. */
function pickedValues() {
  const devices = live();
  const withUptime = devices.find((d) => d.uptimeSeconds !== null)!;
  const withRam = devices.find((d) => d.metrics.ramPercent !== null)!;
  const enrolled = devices[5]!;
  const site = fleet.sites.find((s) => devices.some((d) => d.siteId === s.id))!;
  const groups = fleet.groups.filter((g) => devices.some((d) => d.groupIds.includes(g.id)));
  return { devices, withUptime, withRam, enrolled, site, groups };
}

function cases(): Array<[string, Case[]]> {
  const { devices, withUptime, withRam, enrolled, site, groups } = pickedValues();
  const h1 = devices[0]!.hostname;
  const h2 = devices[1]!.hostname;
  const enrolledDay = enrolled.enrolledAt.slice(0, 10);
  const enrolledDays = Math.floor(daysSince(fleet.now.getTime(), enrolled.enrolledAt)!);
  const mid = new Date(fleet.now.getTime() - 120 * DAY).toISOString().slice(0, 10);
  const recent = new Date(fleet.now.getTime() - 10 * DAY).toISOString();
  const older = new Date(fleet.now.getTime() - 40 * DAY).toISOString();
  const today = fleet.now.toISOString().slice(0, 10);
  const g1 = groups[0]!.id;
  const g2 = groups[1]!.id;
  // Two tags some device carries together, in upper case: hasAll must match them case-insensitively.
  const tagPair = devices
    .find((d) => new Set(d.tags.map(fold)).size >= 2)!
    .tags.slice(0, 2)
    .map((t) => t.toUpperCase());
  const seenIp = devices.find((d) => d.lastSeenIp !== null)!.lastSeenIp!;
  const cf = (d: FleetDevice, key: string) => d.customFields[key];

  return [
    [
      'core',
      [
        c('hostname', 'equals', h1, (d) => d.hostname === h1),
        c('hostname', 'notEquals', h1, (d) => d.hostname !== h1),
        c('hostname', 'contains', 'web', (d) => has(d.hostname, 'web')),
        c('hostname', 'notContains', 'WEB', (d) => !has(d.hostname, 'web')),
        c('hostname', 'startsWith', 'lab_', (d) => fold(d.hostname).startsWith('lab_')),
        c('hostname', 'startsWith', 'fin%', (d) => fold(d.hostname).startsWith('fin%')),
        c('hostname', 'endsWith', '7', (d) => d.hostname.endsWith('7')),
        c('hostname', 'matches', '^(web|db)\\d+$', (d) => /^(web|db)\d+$/.test(d.hostname)),
        c('hostname', 'matches', '(?i)^web', (d) => /^web/i.test(d.hostname)),
        c('hostname', 'in', [h1, h2], (d) => d.hostname === h1 || d.hostname === h2),
        c('hostname', 'notIn', [h1, h2], (d) => d.hostname !== h1 && d.hostname !== h2),
        c('hostname', 'isNull', undefined, () => false, true),
        c('hostname', 'isNotNull', undefined, () => true, true),
        c('displayName', 'contains', '100%', (d) => has(d.displayName, '100%')),
        c('displayName', 'equals', 'Front desk', (d) => d.displayName === 'Front desk'),
        c('displayName', 'notEquals', 'Front desk', (d) => d.displayName !== 'Front desk'),
        c('displayName', 'notContains', 'desk', (d) => !has(d.displayName, 'desk')),
        c('displayName', 'startsWith', 'build_', (d) => has(d.displayName?.slice(0, 6), 'build_')),
        c(
          'displayName',
          'notIn',
          ['Front desk', 'Lab bench'],
          (d) => !['Front desk', 'Lab bench'].includes(d.displayName!),
        ),
        c('displayName', 'isNull', undefined, (d) => d.displayName === null),
        c('displayName', 'isNotNull', undefined, (d) => d.displayName !== null),
        c('agentVersion', 'startsWith', '1.4', (d) => d.agentVersion.startsWith('1.4')),
        c('agentVersion', 'equals', '1.5.0', (d) => d.agentVersion === '1.5.0'),
        c('agentVersion', 'matches', '-beta', (d) => d.agentVersion.includes('-beta')),
        c(
          'lastUser',
          'endsWith',
          'backup',
          (d) => has(d.lastUser, 'backup') && fold(d.lastUser!).endsWith('backup'),
        ),
        c('lastUser', 'contains', 'corp\\', (d) => has(d.lastUser, 'corp\\')),
        c('lastUser', 'in', ['alice', 'bob'], (d) => d.lastUser === 'alice' || d.lastUser === 'bob'),
        c('lastUser', 'isNull', undefined, (d) => d.lastUser === null),
        c('status', 'equals', 'online', (d) => d.status === 'online'),
        c('status', 'notEquals', 'online', (d) => d.status !== 'online'),
        c(
          'status',
          'in',
          ['offline', 'maintenance'],
          (d) => d.status === 'offline' || d.status === 'maintenance',
        ),
        c('status', 'notIn', ['online', 'offline'], (d) => d.status !== 'online' && d.status !== 'offline'),
        // Decommissioned devices never match, even when asked for by name.
        c('status', 'equals', 'decommissioned', () => false, true),
        c('enrolledAt', 'equals', enrolledDay, (d) => d.enrolledAt.slice(0, 10) === enrolledDay),
        c('enrolledAt', 'equals', enrolled.enrolledAt, (d) => d.enrolledAt === enrolled.enrolledAt),
        c('enrolledAt', 'notEquals', enrolledDay, (d) => d.enrolledAt.slice(0, 10) !== enrolledDay),
        c('enrolledAt', 'before', mid, (d) => ms(d.enrolledAt)! < dayStart(mid)),
        c('enrolledAt', 'after', mid, (d) => ms(d.enrolledAt)! >= dayStart(mid) + DAY),
        c('enrolledAt', 'between', { from: mid, to: today }, (d) => {
          const t = ms(d.enrolledAt)!;
          return t >= dayStart(mid) && t < dayStart(today) + DAY;
        }),
        c(
          'enrolledAt',
          'withinLast',
          { amount: 30, unit: 'days' },
          (d, now) => ms(d.enrolledAt)! >= now - 30 * DAY,
        ),
        c(
          'enrolledAt',
          'notWithinLast',
          { amount: 3, unit: 'months' },
          (d, now) => ms(d.enrolledAt)! < monthsAgo(now, 3),
        ),
        c(
          'enrolledAt',
          'withinLast',
          { amount: 8, unit: 'weeks' },
          (d, now) => ms(d.enrolledAt)! >= now - 56 * DAY,
        ),
        c('enrolledAt', 'isNull', undefined, () => false, true),
        c('enrolledAt', 'isNotNull', undefined, () => true, true),
        c(
          'lastSeenAt',
          'withinLast',
          { amount: 36, unit: 'hours' },
          (d, now) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! >= now - 1.5 * DAY,
        ),
        c(
          'lastSeenAt',
          'withinLast',
          { amount: 7200, unit: 'minutes' },
          (d, now) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! >= now - 5 * DAY,
        ),
        // Never seen is "not seen within the last week" too.
        c(
          'lastSeenAt',
          'notWithinLast',
          { amount: 7, unit: 'days' },
          (d, now) => ms(d.lastSeenAt) === null || ms(d.lastSeenAt)! < now - 7 * DAY,
        ),
        c(
          'lastSeenAt',
          'before',
          recent,
          (d) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! < Date.parse(recent),
        ),
        c(
          'lastSeenAt',
          'after',
          recent,
          (d) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! > Date.parse(recent),
        ),
        c('lastSeenAt', 'between', { from: older, to: recent }, (d) => {
          const t = ms(d.lastSeenAt);
          return t !== null && t >= Date.parse(older) && t <= Date.parse(recent);
        }),
        c('lastSeenAt', 'isNull', undefined, (d) => d.lastSeenAt === null),
        c('lastSeenAt', 'isNotNull', undefined, (d) => d.lastSeenAt !== null),
        c('quarantinedAt', 'isNotNull', undefined, (d) => d.quarantinedAt !== null),
        c(
          'quarantinedAt',
          'withinLast',
          { amount: 10, unit: 'days' },
          (d, now) => ms(d.quarantinedAt) !== null && ms(d.quarantinedAt)! >= now - 10 * DAY,
        ),
        c('quarantinedAt', 'isNull', undefined, (d) => d.quarantinedAt === null),
        c('tags', 'hasAny', ['vip', 'finance'], (d) =>
          d.tags.some((t) => ['vip', 'finance'].includes(fold(t))),
        ),
        c('tags', 'hasAny', ['PRODUCTION'], (d) => d.tags.some((t) => fold(t) === 'production')),
        c('tags', 'hasAll', tagPair, (d) => tagPair.every((v) => d.tags.some((t) => fold(t) === fold(v)))),
        c('tags', 'hasAll', ['staging'], (d) => d.tags.includes('staging')),
        c('tags', 'isEmpty', undefined, (d) => d.tags.length === 0),
        c('tags', 'isNotEmpty', undefined, (d) => d.tags.length > 0),
        c('tags', 'contains', 'lab_', (d) => d.tags.some((t) => has(t, 'lab_'))),
        c('tags', 'contains', '%', (d) => d.tags.some((t) => t.includes('%'))),
        c('tags', 'contains', 'PROD', (d) => d.tags.some((t) => has(t, 'prod'))),
        c('deviceRole', 'equals', 'server', (d) => d.deviceRole === 'server'),
        c('deviceRole', 'notEquals', 'workstation', (d) => d.deviceRole !== 'workstation'),
        c('deviceRole', 'in', ['printer', 'router', 'nas'], (d) =>
          ['printer', 'router', 'nas'].includes(d.deviceRole),
        ),
        c(
          'deviceRole',
          'notIn',
          ['workstation', 'server'],
          (d) => !['workstation', 'server'].includes(d.deviceRole),
        ),
        c('isHeadless', 'equals', true, (d) => d.isHeadless),
        c('isHeadless', 'notEquals', true, (d) => !d.isHeadless),
        c('isHeadless', 'isNull', undefined, () => false, true),
        c('isHeadless', 'isNotNull', undefined, () => true, true),
        c(
          'uptimeSeconds',
          'equals',
          withUptime.uptimeSeconds,
          (d) => d.uptimeSeconds === withUptime.uptimeSeconds,
        ),
        c(
          'uptimeSeconds',
          'notEquals',
          withUptime.uptimeSeconds,
          (d) => d.uptimeSeconds !== withUptime.uptimeSeconds,
        ),
        c(
          'uptimeSeconds',
          'greaterThan',
          2_000_000,
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds > 2_000_000,
        ),
        c(
          'uptimeSeconds',
          'lessThanOrEquals',
          1_000_000,
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds <= 1_000_000,
        ),
        c(
          'uptimeSeconds',
          'between',
          { from: 500_000, to: 3_000_000 },
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds >= 500_000 && d.uptimeSeconds <= 3_000_000,
        ),
        c('uptimeSeconds', 'isNull', undefined, (d) => d.uptimeSeconds === null),
        c('watchdogStatus', 'equals', 'connected', (d) => d.watchdogStatus === 'connected'),
        c('watchdogStatus', 'notEquals', 'connected', (d) => d.watchdogStatus !== 'connected'),
        c(
          'watchdogStatus',
          'in',
          ['failover', 'offline'],
          (d) => d.watchdogStatus === 'failover' || d.watchdogStatus === 'offline',
        ),
        c(
          'watchdogStatus',
          'notIn',
          ['failover', 'offline'],
          (d) => d.watchdogStatus !== 'failover' && d.watchdogStatus !== 'offline',
        ),
      ],
    ],
    [
      'capability checks',
      [
        c('patches.pending', 'equals', true, (d) => d.patchesPending),
        c('patches.pending', 'notEquals', true, (d) => !d.patchesPending),
        c('alerts.critical', 'equals', true, (d) => d.alertsCritical),
        c('alerts.critical', 'notEquals', false, (d) => d.alertsCritical),
        c('system.rebootRequired', 'equals', true, (d) => d.rebootRequired === true),
        c('system.rebootRequired', 'equals', false, (d) => d.rebootRequired === false),
        // Unknown reboot state is "not known to need a reboot".
        c('system.rebootRequired', 'notEquals', true, (d) => d.rebootRequired !== true),
      ],
    ],
    [
      'OS',
      [
        c('osType', 'equals', 'windows', (d) => d.osType === 'windows'),
        c('osType', 'notEquals', 'windows', (d) => d.osType !== 'windows'),
        c('osType', 'in', ['macos', 'linux'], (d) => d.osType === 'macos' || d.osType === 'linux'),
        c('osType', 'notIn', ['macos'], (d) => d.osType !== 'macos'),
        c('osVersion', 'contains', 'WINDOWS', (d) => has(d.osVersion, 'windows')),
        c('osVersion', 'startsWith', 'macOS', (d) => d.osVersion.startsWith('macOS')),
        c('osVersion', 'endsWith', 'lts', (d) => fold(d.osVersion).endsWith('lts')),
        c('osVersion', 'matches', '(?i)server', (d) => /server/i.test(d.osVersion)),
        c('osVersion', 'notContains', 'windows', (d) => !has(d.osVersion, 'windows')),
        c('osBuild', 'equals', '22631', (d) => d.osBuild === '22631'),
        c('osBuild', 'notEquals', '22631', (d) => d.osBuild !== '22631'),
        c('osBuild', 'isNull', undefined, (d) => d.osBuild === null),
        c('osBuild', 'isNotNull', undefined, (d) => d.osBuild !== null),
        c('architecture', 'equals', 'arm64', (d) => d.architecture === 'arm64'),
        c('architecture', 'notEquals', 'x64', (d) => d.architecture !== 'x64'),
        c('architecture', 'in', ['x86', 'arm64'], (d) => d.architecture !== 'x64'),
        c('architecture', 'notIn', ['x64'], (d) => d.architecture !== 'x64'),
      ],
    ],
    [
      'hardware',
      [
        c('hardware.manufacturer', 'equals', 'LENOVO', (d) => d.hardware.manufacturer === 'LENOVO'),
        c('hardware.manufacturer', 'contains', 'dell', (d) => has(d.hardware.manufacturer, 'dell')),
        c('hardware.manufacturer', 'in', ['Apple', 'HP'], (d) =>
          ['Apple', 'HP'].includes(d.hardware.manufacturer!),
        ),
        c('hardware.manufacturer', 'isNull', undefined, (d) => d.hardware.manufacturer === null),
        c('hardware.model', 'startsWith', 'opti', (d) => has(d.hardware.model?.slice(0, 4), 'opti')),
        c('hardware.model', 'notContains', 'book', (d) => !has(d.hardware.model, 'book')),
        c(
          'hardware.serialNumber',
          'endsWith',
          '_x',
          (d) => has(d.hardware.serialNumber, '_x') && fold(d.hardware.serialNumber!).endsWith('_x'),
        ),
        c('hardware.serialNumber', 'isNull', undefined, (d) => d.hardware.serialNumber === null),
        c('hardware.cpuModel', 'contains', 'ryzen', (d) => has(d.hardware.cpuModel, 'ryzen')),
        c(
          'hardware.cpuModel',
          'matches',
          '^Intel\\(R\\)',
          (d) => d.hardware.cpuModel?.startsWith('Intel(R)') ?? false,
        ),
        c('hardware.gpuModel', 'isNull', undefined, (d) => d.hardware.gpuModel === null),
        c('hardware.gpuModel', 'notEquals', 'Intel Iris Xe', (d) => d.hardware.gpuModel !== 'Intel Iris Xe'),
        c('hardware.cpuCores', 'greaterThanOrEquals', 8, (d) => (d.hardware.cpuCores ?? -1) >= 8),
        c('hardware.cpuCores', 'equals', 4, (d) => d.hardware.cpuCores === 4),
        c(
          'hardware.cpuCores',
          'between',
          { from: 4, to: 8 },
          (d) => d.hardware.cpuCores !== null && d.hardware.cpuCores >= 4 && d.hardware.cpuCores <= 8,
        ),
        c(
          'hardware.ramTotalMb',
          'lessThan',
          16384,
          (d) => d.hardware.ramTotalMb !== null && d.hardware.ramTotalMb < 16384,
        ),
        c('hardware.ramTotalMb', 'notEquals', 8192, (d) => d.hardware.ramTotalMb !== 8192),
        c('hardware.diskTotalGb', 'greaterThan', 500, (d) => (d.hardware.diskTotalGb ?? -1) > 500),
        c('hardware.diskTotalGb', 'isNull', undefined, (d) => d.hardware.diskTotalGb === null),
        c('hardware.diskTotalGb', 'isNotNull', undefined, (d) => d.hardware.diskTotalGb !== null),
      ],
    ],
    [
      'network',
      [
        c(
          'network.ipAddress',
          'startsWith',
          '10.1.',
          (d) => d.network.ipAddress?.startsWith('10.1.') ?? false,
        ),
        c('network.ipAddress', 'isNull', undefined, (d) => d.network.ipAddress === null),
        c('network.publicIp', 'isNotNull', undefined, (d) => d.network.publicIp !== null),
        c('network.publicIp', 'contains', '113.1', (d) => has(d.network.publicIp, '113.1')),
        c('network.macAddress', 'isNull', undefined, (d) => d.network.macAddress === null),
        c(
          'network.macAddress',
          'matches',
          '^[0-9A-F]{2}(:[0-9A-F]{2}){5}$',
          (d) => d.network.macAddress !== null,
        ),
        c('network.macAddress', 'startsWith', 'a', (d) => has(d.network.macAddress?.slice(0, 1), 'a')),
        c(
          'lastSeenIp',
          'startsWith',
          '198.51.100.1',
          (d) => d.lastSeenIp?.startsWith('198.51.100.1') ?? false,
        ),
        c('lastSeenIp', 'isNull', undefined, (d) => d.lastSeenIp === null),
        c('lastSeenIp', 'notIn', [seenIp], (d) => d.lastSeenIp !== seenIp),
      ],
    ],
    [
      'metrics',
      [
        c('metrics.cpuPercent', 'greaterThan', 50, (d) => (d.metrics.cpuPercent ?? -1) > 50),
        c(
          'metrics.cpuPercent',
          'lessThanOrEquals',
          10.5,
          (d) => d.metrics.cpuPercent !== null && d.metrics.cpuPercent <= 10.5,
        ),
        c(
          'metrics.cpuPercent',
          'between',
          { from: 20, to: 40 },
          (d) => d.metrics.cpuPercent !== null && d.metrics.cpuPercent >= 20 && d.metrics.cpuPercent <= 40,
        ),
        c('metrics.cpuPercent', 'isNull', undefined, (d) => d.metrics.cpuPercent === null),
        c(
          'metrics.ramPercent',
          'equals',
          withRam.metrics.ramPercent,
          (d) => d.metrics.ramPercent === withRam.metrics.ramPercent,
        ),
        c(
          'metrics.ramPercent',
          'notEquals',
          withRam.metrics.ramPercent,
          (d) => d.metrics.ramPercent !== withRam.metrics.ramPercent,
        ),
        c('metrics.ramPercent', 'greaterThanOrEquals', 80, (d) => (d.metrics.ramPercent ?? -1) >= 80),
        c(
          'metrics.diskPercent',
          'lessThan',
          25,
          (d) => d.metrics.diskPercent !== null && d.metrics.diskPercent < 25,
        ),
        c('metrics.diskPercent', 'isNotNull', undefined, (d) => d.metrics.diskPercent !== null),
      ],
    ],
    [
      'software',
      [
        c('software.installed', 'contains', 'chrome', (d) => d.software.some((s) => has(s, 'chrome'))),
        c('software.installed', 'contains', 'node_', (d) => d.software.includes('node_exporter')),
        c('software.installed', 'notContains', 'office', (d) => !d.software.some((s) => has(s, 'office'))),
        c('software.installed', 'equals', 'slack', (d) => d.software.some((s) => fold(s) === 'slack')),
        c('software.installed', 'in', ['Zoom', '7-Zip'], (d) =>
          d.software.some((s) => s === 'Zoom' || s === '7-Zip'),
        ),
        c('software.installed', 'hasAny', ['zoom', 'SLACK'], (d) =>
          d.software.some((s) => ['zoom', 'slack'].includes(fold(s))),
        ),
        c(
          'software.installed',
          'hasAll',
          ['google chrome', 'Zoom'],
          (d) => d.software.includes('Google Chrome') && d.software.includes('Zoom'),
        ),
        c('software.notInstalled', 'contains', 'zip', (d) => !d.software.some((s) => has(s, 'zip'))),
      ],
    ],
    [
      'hierarchy',
      [
        c('orgId', 'equals', ids.a2, (d) => d.orgId === ids.a2),
        c('orgId', 'in', [ids.a1, ids.b1], (d) => d.orgId === ids.a1 || d.orgId === ids.b1),
        c('siteId', 'equals', site.id, (d) => d.siteId === site.id),
        c(
          'siteId',
          'in',
          fleet.sites.slice(0, 3).map((s) => s.id),
          (d) => fleet.sites.slice(0, 3).some((s) => s.id === d.siteId),
        ),
        c('groupId', 'equals', g1, (d) => d.groupIds.includes(g1)),
        c('groupId', 'in', [g1, g2], (d) => d.groupIds.includes(g1) || d.groupIds.includes(g2)),
      ],
    ],
    [
      'computed',
      [
        c('daysSinceLastSeen', 'greaterThan', 7, (d, now) => (daysSince(now, d.lastSeenAt) ?? -1) > 7),
        c(
          'daysSinceLastSeen',
          'lessThan',
          2,
          (d, now) => d.lastSeenAt !== null && daysSince(now, d.lastSeenAt)! < 2,
        ),
        c('daysSinceLastSeen', 'between', { from: 1, to: 10 }, (d, now) => {
          const n = daysSince(now, d.lastSeenAt);
          return n !== null && n >= 1 && n <= 10;
        }),
        c(
          'daysSinceLastSeen',
          'equals',
          0,
          (d, now) => d.lastSeenAt !== null && Math.floor(daysSince(now, d.lastSeenAt)!) === 0,
        ),
        c(
          'daysSinceLastSeen',
          'notEquals',
          0,
          (d, now) => d.lastSeenAt === null || Math.floor(daysSince(now, d.lastSeenAt)!) !== 0,
        ),
        c('daysSinceLastSeen', 'isNull', undefined, (d) => d.lastSeenAt === null),
        c('daysSinceEnrolled', 'greaterThanOrEquals', 100, (d, now) => daysSince(now, d.enrolledAt)! >= 100),
        c('daysSinceEnrolled', 'lessThanOrEquals', 60, (d, now) => daysSince(now, d.enrolledAt)! <= 60),
        c(
          'daysSinceEnrolled',
          'equals',
          enrolledDays,
          (d, now) => Math.floor(daysSince(now, d.enrolledAt)!) === enrolledDays,
        ),
      ],
    ],
    [
      'custom',
      [
        // No definition: a string.
        c('custom.assetTag', 'contains', 'at_', (d) => has(cf(d, 'assetTag') as string, 'at_')),
        c('custom.assetTag', 'startsWith', 'AT-', (d) => String(cf(d, 'assetTag') ?? '').startsWith('AT-')),
        c('custom.assetTag', 'contains', '%', (d) => String(cf(d, 'assetTag') ?? '').includes('%')),
        c('custom.assetTag', 'notContains', 'at-', (d) => !has(cf(d, 'assetTag') as string, 'at-')),
        c('custom.assetTag', 'isNull', undefined, (d) => cf(d, 'assetTag') === undefined),
        // Number (defined per partner).
        c('custom.rackUnits', 'greaterThan', 3, (d) => (num(cf(d, 'rackUnits')) ?? -1) > 3),
        c('custom.rackUnits', 'equals', 2, (d) => cf(d, 'rackUnits') === 2),
        c('custom.rackUnits', 'notEquals', 2, (d) => cf(d, 'rackUnits') !== 2),
        c('custom.rackUnits', 'between', { from: 1.5, to: 4.5 }, (d) => {
          const n = num(cf(d, 'rackUnits'));
          return n !== null && n >= 1.5 && n <= 4.5;
        }),
        c(
          'custom.rackUnits',
          'lessThanOrEquals',
          2,
          (d) => num(cf(d, 'rackUnits')) !== null && num(cf(d, 'rackUnits'))! <= 2,
        ),
        c('custom.rackUnits', 'isNull', undefined, (d) => cf(d, 'rackUnits') === undefined),
        // Boolean (defined per organization).
        c('custom.backupEnabled', 'equals', true, (d) => cf(d, 'backupEnabled') === true),
        c('custom.backupEnabled', 'equals', false, (d) => cf(d, 'backupEnabled') === false),
        c('custom.backupEnabled', 'notEquals', true, (d) => cf(d, 'backupEnabled') !== true),
        c('custom.backupEnabled', 'isNull', undefined, (d) => cf(d, 'backupEnabled') === undefined),
        c('custom.backupEnabled', 'isNotNull', undefined, (d) => cf(d, 'backupEnabled') !== undefined),
        // Datetime (defined per organization).
        c(
          'custom.warrantyEnds',
          'before',
          today,
          (d) =>
            ms(cf(d, 'warrantyEnds') as string) !== null &&
            ms(cf(d, 'warrantyEnds') as string)! < dayStart(today),
        ),
        c(
          'custom.warrantyEnds',
          'after',
          today,
          (d) =>
            ms(cf(d, 'warrantyEnds') as string) !== null &&
            ms(cf(d, 'warrantyEnds') as string)! >= dayStart(today) + DAY,
        ),
        c('custom.warrantyEnds', 'withinLast', { amount: 6, unit: 'months' }, (d, now) => {
          const t = ms(cf(d, 'warrantyEnds') as string);
          return t !== null && t >= monthsAgo(now, 6);
        }),
        c('custom.warrantyEnds', 'isNull', undefined, (d) => cf(d, 'warrantyEnds') === undefined),
      ],
    ],
  ];
}

// ---- every operator of every field type -----------------------------------------------------------------------

describe('POST /filters/preview over the seeded fleet', () => {
  it('has a fleet that fits one preview page', () => {
    expect(live().length).toBeGreaterThan(60);
    expect(live().length).toBeLessThanOrEqual(100);
  });

  // The table is built after beforeAll has seeded the fleet, so each case runs inside one `it` per group.
  for (const groupName of [
    'core',
    'capability checks',
    'OS',
    'hardware',
    'network',
    'metrics',
    'software',
    'hierarchy',
    'computed',
    'custom',
  ]) {
    it(`evaluates every ${groupName} case exactly as the oracle`, async () => {
      const table = cases().find(([name]) => name === groupName)![1];
      for (const testCase of table) {
        const res = await preview(group('AND', testCase.condition));
        expect(res.status, `${testCase.name}: ${JSON.stringify(res.body)}`).toBe(200);
        const now = Date.parse(res.body.data.evaluatedAt);
        const expected = live().filter((d) => testCase.match(d, now));
        expect(
          { name: testCase.name, ids: sorted(res.body.data.devices.map((d) => d.id)) },
          `${testCase.name}`,
        ).toEqual({ name: testCase.name, ids: sorted(expected.map((d) => d.id)) });
        expect(res.body.data.totalCount, testCase.name).toBe(expected.length);
        if (!testCase.trivial) {
          // A case that selects nothing or everything would prove little.
          expect(expected.length, `${testCase.name} selects something`).toBeGreaterThan(0);
          expect(expected.length, `${testCase.name} leaves something out`).toBeLessThan(live().length);
        }
      }
    });
  }

  it('covers every operator the spec lists for each type', () => {
    const all = cases().flatMap(([, list]) => list);
    const operatorsOf = (fields: string[]) =>
      new Set(all.filter((x) => fields.includes(x.condition.field)).map((x) => x.condition.operator));
    const strings = [
      'hostname',
      'displayName',
      'agentVersion',
      'lastUser',
      'osVersion',
      'osBuild',
      'custom.assetTag',
    ];
    expect([...operatorsOf(strings)].sort()).toEqual(
      [
        'contains',
        'endsWith',
        'equals',
        'in',
        'isNotNull',
        'isNull',
        'matches',
        'notContains',
        'notEquals',
        'notIn',
        'startsWith',
      ].sort(),
    );
    expect(
      [...operatorsOf(['status', 'deviceRole', 'watchdogStatus', 'osType', 'architecture'])].sort(),
    ).toEqual(['equals', 'in', 'notEquals', 'notIn']);
    expect([...operatorsOf(['enrolledAt', 'lastSeenAt', 'quarantinedAt'])].sort()).toEqual(
      [
        'after',
        'before',
        'between',
        'equals',
        'isNotNull',
        'isNull',
        'notEquals',
        'notWithinLast',
        'withinLast',
      ].sort(),
    );
    expect([...operatorsOf(['tags'])].sort()).toEqual([
      'contains',
      'hasAll',
      'hasAny',
      'isEmpty',
      'isNotEmpty',
    ]);
    expect([...operatorsOf(['isHeadless'])].sort()).toEqual(['equals', 'isNotNull', 'isNull', 'notEquals']);
    expect(
      [
        ...operatorsOf([
          'uptimeSeconds',
          'metrics.cpuPercent',
          'metrics.ramPercent',
          'hardware.cpuCores',
          'hardware.ramTotalMb',
        ]),
      ].sort(),
    ).toEqual(
      [
        'between',
        'equals',
        'greaterThan',
        'greaterThanOrEquals',
        'isNull',
        'lessThan',
        'lessThanOrEquals',
        'notEquals',
      ].sort(),
    );
    expect([...operatorsOf(['software.installed'])].sort()).toEqual([
      'contains',
      'equals',
      'hasAll',
      'hasAny',
      'in',
      'notContains',
    ]);
    expect([...operatorsOf(['custom.backupEnabled'])].sort()).toEqual([
      'equals',
      'isNotNull',
      'isNull',
      'notEquals',
    ]);
  });

  it('evaluates nested AND/OR groups three levels deep', async () => {
    const all = cases().flatMap(([, list]) => list);
    const find = (name: string) => all.find((x) => x.name === name)!;
    const a = find('osType equals "windows"');
    const b = find('tags isNotEmpty');
    const cc = find('software.installed contains "chrome"');
    const d = find('custom.backupEnabled equals true');
    const e = find('lastSeenAt notWithinLast {"amount":7,"unit":"days"}');
    const f = find('deviceRole in ["printer","router","nas"]');
    // (a AND (b OR (cc AND d))) OR (e AND NOT-ish f) ... expressed with the language's own operators.
    const conditions = group(
      'OR',
      group('AND', a.condition, group('OR', b.condition, group('AND', cc.condition, d.condition))),
      group('AND', e.condition, f.condition),
    );
    const res = await preview(conditions);
    expect(res.status).toBe(200);
    const now = Date.parse(res.body.data.evaluatedAt);
    const expected = live().filter(
      (x) =>
        (a.match(x, now) && (b.match(x, now) || (cc.match(x, now) && d.match(x, now)))) ||
        (e.match(x, now) && f.match(x, now)),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(live().length);
    expect(sorted(res.body.data.devices.map((x) => x.id))).toEqual(sorted(expected.map((x) => x.id)));
    expect(res.body.data.totalCount).toBe(expected.length);
  });

  it('counts all matches but returns at most `limit`, ordered by hostname, with the preview shape', async () => {
    const res = await preview(
      group('AND', { field: 'hostname', operator: 'isNotNull' }),
      { token: tok.system },
      3,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.totalCount).toBe(live().length);
    const byHost = [...live()].sort(
      (x, y) =>
        fold(x.hostname).localeCompare(fold(y.hostname), 'en', { sensitivity: 'variant' }) ||
        x.id.localeCompare(y.id),
    );
    expect(res.body.data.devices.map((x) => x.hostname)).toHaveLength(3);
    const first = byHost[0]!;
    expect(res.body.data.devices[0]).toEqual({
      id: expect.any(String),
      hostname: expect.any(String),
      displayName: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
      osType: expect.stringMatching(/^(windows|macos|linux)$/),
      status: expect.any(String),
      lastSeenAt: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    });
    const top = fleet.devices.find((x) => x.id === res.body.data.devices[0]!.id)!;
    expect(fold(top.hostname) <= fold(first.hostname)).toBe(true);
    expect(Date.parse(res.body.data.evaluatedAt)).toBeGreaterThan(Date.now() - 60_000);
    const defaulted = await call(
      'POST',
      '/filters/preview',
      { token: tok.system },
      {
        conditions: group('AND', { field: 'hostname', operator: 'isNotNull' }),
      },
    );
    expect(defaulted.body.data.devices).toHaveLength(10);
  });

  it('refuses bad limits, unknown fields, bad operators and values with 400', async () => {
    const ok = group('AND', { field: 'hostname', operator: 'isNotNull' });
    for (const limit of [0, 101, 2.5, '5']) {
      const res = await call('POST', '/filters/preview', { token: tok.system }, { conditions: ok, limit });
      expectError(res, 400, 'limit: limit must be an integer between 1 and 100', 'VALIDATION_ERROR');
    }
    expectError(
      await call('POST', '/filters/preview', { token: tok.system }, {}),
      400,
      'conditions: conditions is required',
    );
    expectError(
      await preview(group('AND', { field: 'serial', operator: 'equals', value: 'x' })),
      400,
      'Unknown field: serial',
      'UNKNOWN_FIELD',
    );
    const badOp = await preview(group('AND', group('OR', { field: 'tags', operator: 'equals', value: 'x' })));
    expectError(badOp, 400, /^Operator equals is not supported for tags \(array\)/, 'INVALID_FILTER');
    expect((badOp.body as unknown as { path: string }).path).toBe('conditions.conditions.0.conditions.0');
    expectError(
      await preview(group('AND', { field: 'hostname', operator: 'matches', value: '(a+)+$' })),
      400,
      /^Invalid regular expression for hostname/,
    );
    expectError(
      await preview(group('AND', { field: 'hostname', operator: 'matches', value: '[' })),
      400,
      /^Invalid regular expression for hostname/,
    );
    expectError(
      await preview({ operator: 'AND', conditions: [] }),
      400,
      'conditions.conditions: a group needs at least one condition',
    );
    let deep: unknown = { field: 'hostname', operator: 'isNull' };
    for (let i = 0; i < 40; i++) deep = group('AND', deep as FilterCondition);
    expectError(await preview(deep), 400, /groups may be nested at most 32 levels deep$/);
  });
});

// ---- saved filters: CRUD ----------------------------------------------------------------------------------------

const windows = group('AND', { field: 'osType', operator: 'equals', value: 'windows' });

async function createFilter(caller: Caller, body: Record<string, unknown>) {
  return call('POST', '/filters', caller, { name: 'Windows', conditions: windows, ...body });
}

async function auditFor(resourceId: string | null, action: string) {
  await auditSettled(server);
  const rows = server.context.db
    .prepare(
      `SELECT org_id, partner_id, actor_type, actor_id, action, resource_type, resource_id, resource_name, details
       FROM audit_logs WHERE action = ? AND (? IS NULL OR resource_id = ?) ORDER BY seq`,
    )
    .all(action, resourceId, resourceId) as Array<Record<string, unknown>>;
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details as string) as Record<string, unknown> }));
}

describe('/filters CRUD', () => {
  it('creates a filter (201) in the named organization and audits filter.create', async () => {
    const res = await createFilter(
      { token: tok.system },
      {
        orgId: ids.a1,
        name: '  Windows servers  ',
        description: 'All Windows machines',
        conditions: group('AND', {
          field: 'osType',
          operator: 'equals',
          value: 'windows',
          junk: 1,
        } as FilterCondition),
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      orgId: ids.a1,
      name: 'Windows servers',
      description: 'All Windows machines',
      conditions: windows,
      createdBy: ids.adminId,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
    const stored = server.context.db
      .prepare('SELECT * FROM saved_filters WHERE id = ?')
      .get(res.body.id) as Record<string, unknown>;
    expect(JSON.parse(stored.conditions as string)).toEqual(windows);
    expect(await auditFor(res.body.id, 'filter.create')).toEqual([
      expect.objectContaining({
        org_id: ids.a1,
        actor_type: 'user',
        actor_id: ids.adminId,
        resource_type: 'filter',
        resource_name: 'Windows servers',
        details: { description: 'All Windows machines', fields: ['osType'] },
      }),
    ]);
  });

  it('requires orgId from partner and system callers and ignores it for organization scope', async () => {
    expectError(
      await createFilter({ token: tok.partnerAll }, {}),
      400,
      'orgId is required for partner scope',
    );
    expectError(await createFilter({ token: tok.system }, {}), 400, 'orgId is required for system scope');
    const own = await createFilter({ token: tok.orgAdmin }, { orgId: ids.b1 });
    expect(own.status).toBe(201);
    expect(own.body.orgId).toBe(ids.a1);
    const key = await createFilter({ key: keyWrite }, { orgId: ids.b1 });
    expect(key.status).toBe(201);
    expect(key.body.orgId).toBe(ids.a1);
  });

  it('validates the body and the conditions at save time', async () => {
    expectError(
      await createFilter({ token: tok.orgAdmin }, { name: ' ' }),
      400,
      'name: name must be 1-200 characters',
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { name: 'x'.repeat(201) }),
      400,
      'name: name must be 1-200 characters',
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { description: 'x'.repeat(1001) }),
      400,
      'description: description must be at most 1000 characters',
    );
    expectError(
      await createFilter(
        { token: tok.orgAdmin },
        { conditions: group('AND', { field: 'nope', operator: 'equals', value: 1 }) },
      ),
      400,
      'Unknown field: nope',
    );
    // custom.rackUnits is a number for A1 (its partner's definition): string operators are refused.
    expectError(
      await createFilter(
        { token: tok.orgAdmin },
        { conditions: group('AND', { field: 'custom.rackUnits', operator: 'contains', value: '1' }) },
      ),
      400,
      /^Operator contains is not supported for custom.rackUnits \(number\)/,
    );
    expectError(
      await createFilter({ token: tok.orgAdmin }, { conditions: 'x' }),
      400,
      'conditions: must be a condition group {operator, conditions}',
    );
  });

  it('gets, lists newest first with search, updates with changed field names, deletes', async () => {
    const first = await createFilter(
      { token: tok.orgAdmin },
      { name: 'Alpha laptops', description: 'Roaming fleet' },
    );
    const second = await createFilter({ token: tok.orgAdmin }, { name: 'Alpha 100% servers' });
    expect(first.status).toBe(201);
    const got = await call('GET', `/filters/${first.body.id}`, { token: tok.orgTech });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(first.body);

    const list = await call('GET', '/filters', { token: tok.orgAdmin });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(list.body.data.length);
    const stamps = list.body.data.map((f: { createdAt: string }) => f.createdAt);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(list.body.data[0].id).toBe(second.body.id);
    expect(list.body.data.every((f: { orgId: string }) => f.orgId === ids.a1)).toBe(true);

    const byDescription = await call('GET', '/filters?search=ROAMING', { token: tok.orgAdmin });
    expect(byDescription.body).toEqual({ data: [first.body], total: 1 });
    const literal = await call('GET', `/filters?search=${encodeURIComponent('100%')}`, {
      token: tok.orgAdmin,
    });
    expect(literal.body.data.map((f: { id: string }) => f.id)).toEqual([second.body.id]);

    const linux = group('OR', { field: 'osType', operator: 'equals', value: 'linux' });
    const patched = await call(
      'PATCH',
      `/filters/${first.body.id}`,
      { token: tok.orgTech },
      {
        name: 'Alpha laptops',
        description: null,
        conditions: linux,
      },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: first.body.id,
      name: 'Alpha laptops',
      description: null,
      conditions: linux,
    });
    expect(patched.body.updatedAt >= first.body.updatedAt).toBe(true);
    expect((await auditFor(first.body.id, 'filter.update')).map((r) => r.details)).toEqual([
      { changedFields: ['description', 'conditions'] },
    ]);
    expectError(
      await call('PATCH', `/filters/${first.body.id}`, { token: tok.orgTech }, {}),
      400,
      'No updates provided',
    );
    expectError(
      await call(
        'PATCH',
        `/filters/${first.body.id}`,
        { token: tok.orgTech },
        { conditions: group('AND', { field: 'x', operator: 'isNull' }) },
      ),
      400,
      'Unknown field: x',
    );

    const deleted = await call('DELETE', `/filters/${first.body.id}`, { token: tok.orgAdmin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(patched.body);
    expect(
      server.context.db.prepare('SELECT 1 FROM saved_filters WHERE id = ?').get(first.body.id),
    ).toBeUndefined();
    expect(await auditFor(first.body.id, 'filter.delete')).toHaveLength(1);
    expectError(
      await call('GET', `/filters/${first.body.id}`, { token: tok.orgAdmin }),
      404,
      'Filter not found',
    );
    expectError(
      await call('DELETE', `/filters/${first.body.id}`, { token: tok.orgAdmin }),
      404,
      'Filter not found',
    );
    expectError(await call('GET', '/filters/not-a-uuid', { token: tok.orgAdmin }), 404, 'Filter not found');
  });

  it('previews a saved filter over all accessible organizations and audits filter.saved.preview', async () => {
    const saved = await createFilter(
      { token: tok.system },
      {
        orgId: ids.a2,
        name: 'Linux',
        conditions: group('AND', { field: 'osType', operator: 'equals', value: 'linux' }),
      },
    );
    const res = await call('POST', `/filters/${saved.body.id}/preview?limit=2`, { token: tok.partnerAll });
    expect(res.status).toBe(200);
    const p1Linux = live().filter((d) => d.osType === 'linux' && d.orgId !== ids.b1);
    expect(res.body.data.totalCount).toBe(p1Linux.length);
    expect(res.body.data.devices).toHaveLength(2);
    expect(res.body.data.devices.every((d: { osType: string }) => d.osType === 'linux')).toBe(true);
    const asSystem = await call('POST', `/filters/${saved.body.id}/preview`, { token: tok.system });
    expect(asSystem.body.data.totalCount).toBe(live().filter((d) => d.osType === 'linux').length);
    expect(asSystem.body.data.devices).toHaveLength(10);
    expectError(
      await call('POST', `/filters/${saved.body.id}/preview?limit=0`, { token: tok.system }),
      400,
      'limit: limit must be an integer between 1 and 100',
    );
    expectError(
      await call('POST', `/filters/${saved.body.id}/preview?limit=abc`, { token: tok.system }),
      400,
      'limit: limit must be an integer between 1 and 100',
    );
    expect(await auditFor(saved.body.id, 'filter.saved.preview')).toEqual([
      expect.objectContaining({
        org_id: ids.a2,
        actor_type: 'user',
        details: { limit: 2, totalCount: p1Linux.length },
      }),
      expect.objectContaining({
        org_id: ids.a2,
        details: { limit: 10, totalCount: asSystem.body.data.totalCount },
      }),
    ]);
  });

  it('audits ad-hoc previews as filter.preview in the caller’s chain', async () => {
    const before = (await auditFor(null, 'filter.preview')).length;
    const res = await preview(windows, { token: tok.orgTech }, 5);
    const rows = await auditFor(null, 'filter.preview');
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      org_id: ids.a1,
      actor_type: 'user',
      resource_type: 'filter',
      details: { fields: ['osType'], limit: 5, totalCount: res.body.data.totalCount },
    });
    await preview(windows, { token: tok.partnerAll }, 5);
    expect((await auditFor(null, 'filter.preview')).at(-1)).toMatchObject({
      org_id: null,
      partner_id: ids.p1,
    });
  });
});

// ---- scope and permissions ----------------------------------------------------------------------------------------

describe('/filters scope isolation', () => {
  let inA1: string;
  let inA2: string;
  let inB1: string;

  beforeAll(async () => {
    inA1 = (await createFilter({ token: tok.system }, { orgId: ids.a1, name: 'scope A1' })).body.id;
    inA2 = (await createFilter({ token: tok.system }, { orgId: ids.a2, name: 'scope A2' })).body.id;
    inB1 = (await createFilter({ token: tok.system }, { orgId: ids.b1, name: 'scope B1' })).body.id;
  });

  const visible = async (caller: Caller) => {
    const res = await call('GET', '/filters?search=scope', caller);
    expect(res.status).toBe(200);
    return sorted(res.body.data.map((f: { id: string }) => f.id));
  };

  it('lists and gets only filters of accessible organizations', async () => {
    expect(await visible({ token: tok.system })).toEqual(sorted([inA1, inA2, inB1]));
    expect(await visible({ token: tok.partnerAll })).toEqual(sorted([inA1, inA2]));
    expect(await visible({ token: tok.partnerSelected })).toEqual([inA1]);
    expect(await visible({ token: tok.partnerNone })).toEqual([]);
    expect(await visible({ token: tok.orgAdmin })).toEqual([inA1]);
    expect(await visible({ token: tok.orgAdminB })).toEqual([inB1]);
    expect(await visible({ key: keyRead })).toEqual([inA1]);
    for (const [caller, id] of [
      [{ token: tok.partnerSelected }, inA2],
      [{ token: tok.partnerAll }, inB1],
      [{ token: tok.orgAdmin }, inB1],
      [{ key: keyWrite }, inA2],
    ] as Array<[Caller, string]>) {
      expectError(await call('GET', `/filters/${id}`, caller), 404, 'Filter not found');
      expectError(await call('PATCH', `/filters/${id}`, caller, { name: 'mine' }), 404, 'Filter not found');
      expectError(await call('POST', `/filters/${id}/preview`, caller), 404, 'Filter not found');
    }
    expect((await call('GET', `/filters/${inA2}`, { token: tok.partnerAll })).status).toBe(200);
  });

  it('creates only in accessible organizations: 404 for partner scope, ignored for organization scope', async () => {
    expectError(
      await createFilter({ token: tok.partnerSelected }, { orgId: ids.a2 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerAll }, { orgId: ids.b1 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerNone }, { orgId: ids.a1 }),
      404,
      'Organization not found',
    );
    expectError(
      await createFilter({ token: tok.partnerAll }, { orgId: 'nope' }),
      404,
      'Organization not found',
    );
    const ok = await createFilter({ token: tok.partnerSelected }, { orgId: ids.a1 });
    expect(ok.status).toBe(201);
  });

  it('needs devices:read to read, devices:write plus MFA to write', async () => {
    // Partner admins of P1 hold *:*; the read-only A1 user and the read-only key may read but not write.
    expect((await call('GET', '/filters', { token: readOnly })).status).toBe(200);
    expect((await preview(windows, { token: readOnly })).status).toBe(200);
    expectError(await createFilter({ token: readOnly }, {}), 403, 'Insufficient permissions');
    expectError(
      await call('DELETE', `/filters/${inA1}`, { token: readOnly }),
      403,
      'Insufficient permissions',
    );
    expectError(await createFilter({ key: keyRead }, {}), 403, 'API key does not have required permissions');
    expectError(
      await createFilter({ token: tok.noMfa }, {}),
      403,
      'Multi-factor authentication required for this action',
      'MFA_REQUIRED',
    );
    expectError(
      await call('PATCH', `/filters/${inA1}`, { token: tok.noMfa }, { name: 'x' }),
      403,
      'Multi-factor authentication required for this action',
    );
    expect((await call('GET', `/filters/${inA1}`, { token: tok.noMfa })).status).toBe(200);
    // API keys have no MFA and are trusted by their scopes.
    const viaKey = await call(
      'PATCH',
      `/filters/${inA1}`,
      { key: keyWrite },
      { description: 'edited by key' },
    );
    expect(viaKey.status).toBe(200);
    expect((await auditFor(inA1, 'filter.update')).at(-1)).toMatchObject({
      actor_type: 'api_key',
      details: { changedFields: ['description'] },
    });
    expectError(await server.api.request('GET', '/filters'), 401, 'Authentication required');
  });

  it('previews count only the devices the caller can see', async () => {
    const all = group('AND', { field: 'hostname', operator: 'isNotNull' });
    const count = async (caller: Caller) => (await preview(all, caller)).body.data.totalCount;
    const inOrgs = (...orgIds: string[]) => live().filter((d) => orgIds.includes(d.orgId)).length;
    expect(await count({ token: tok.system })).toBe(live().length);
    expect(await count({ token: tok.partnerAll })).toBe(inOrgs(ids.a1, ids.a2));
    expect(await count({ token: tok.partnerSelected })).toBe(inOrgs(ids.a1));
    expect(await count({ token: tok.partnerNone })).toBe(0);
    expect(await count({ token: tok.orgTech })).toBe(inOrgs(ids.a1));
    expect(await count({ key: keyRead })).toBe(inOrgs(ids.a1));
    expect(await count({ token: tok.orgAdminB })).toBe(inOrgs(ids.b1));
    // Naming another organization's id in the conditions finds nothing outside the caller's scope.
    expect(
      (
        await preview(group('AND', { field: 'orgId', operator: 'equals', value: ids.b1 }), {
          token: tok.orgTech,
        })
      ).body.data.totalCount,
    ).toBe(0);
  });

  it('narrows previews to the sites of a site-restricted organization user', async () => {
    const site = fleet.sites.find((s) => s.orgId === ids.a1)!;
    const userId = await insertOrgUser(server, ids.a1, ROLES.orgTechnician, 'site@a1.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE org_id = ? AND user_id = ?')
      .run(JSON.stringify([site.id]), ids.a1, userId);
    const token = await mfaToken(server, 'site@a1.test', PASSWORD);
    const res = await preview(group('AND', { field: 'hostname', operator: 'isNotNull' }), { token });
    const expected = live().filter((d) => d.siteId === site.id);
    expect(res.body.data.totalCount).toBe(expected.length);
    expect(sorted(res.body.data.devices.map((d) => d.id))).toEqual(sorted(expected.map((d) => d.id)));
  });
});
