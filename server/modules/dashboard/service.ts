import type { AppContext } from '../../context';
import {
  ELEVATION_OUTCOMES,
  type Architecture,
  type AuditEntry,
  type DashboardAgentUpdates,
  type DashboardDevices,
  type DashboardElevations,
  type DashboardResponse,
  type ElevationOutcome,
  type RiskLevel,
} from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { callerHolds, PERMISSIONS } from '../../http/permissions';
import { upgradeFor } from '../agent-versions';
import { auditEntriesBefore, auditScope, auditWhere } from '../audit';
import {
  deviceVisibility,
  onDeviceRows,
  onDevices,
  visibilityClauses,
  type DeviceVisibility,
} from '../devices';
import { organizationById, partnerById } from '../tenancy';
import { presenceSeries } from './presence';
import {
  activeGrantCount,
  agentVersionGroups,
  deviceStatusCounts,
  grantsEndingSoonest,
  outcomesPerDay,
  pendingByRisk,
} from './store';

// GET /dashboard: the Overview's numbers for the caller. Each section counts exactly what the list it links to
// would show the caller (the same visibility clauses: scope, sites, device groups), and a section whose list the
// caller may not read is null rather than zero, so the console leaves the tile out instead of showing a lie.

const RISKS_FIRST_WORST: readonly RiskLevel[] = ['critical', 'high', 'medium', 'low'];
const GRANTS_SHOWN = 5;
const DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const AUDIT_SHOWN = 8;

const zeroOutcomes = () =>
  Object.fromEntries(ELEVATION_OUTCOMES.map((o) => [o, 0])) as Record<ElevationOutcome, number>;

/** The last `DAYS` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DAYS }, (_, i) =>
    new Date(today - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The executable's file name (Windows or POSIX path), else the AI tool's name. */
const targetName = (path: string | null, tool: string | null) =>
  path ? (path.split(/[\\/]/).pop() ?? path) : tool;

function elevations(ctx: AppContext, v: DeviceVisibility, now: Date): DashboardElevations {
  const clauses = visibilityClauses(v, onDeviceRows('r'));
  const nowIso = now.toISOString();
  const waiting = new Map(pendingByRisk(ctx.db, clauses).map((p) => [p.risk, p]));
  const days = lastDays(now);
  const perDay = new Map(days.map((day) => [day, zeroOutcomes()]));
  const mix = zeroOutcomes();
  for (const row of outcomesPerDay(ctx.db, clauses, `${days[0]}T00:00:00.000Z`)) {
    const day = perDay.get(row.day);
    if (!day) continue; // raised "in the future" by a skewed agent clock: not part of the last 7 days
    day[row.outcome] += row.count;
    mix[row.outcome] += row.count;
  }
  return {
    pending: RISKS_FIRST_WORST.map((risk) => ({
      risk,
      count: waiting.get(risk)?.count ?? 0,
      oldestRequestedAt: waiting.get(risk)?.oldest ?? null,
    })),
    activeGrants: {
      total: activeGrantCount(ctx.db, clauses, nowIso),
      endingSoonest: grantsEndingSoonest(ctx.db, clauses, nowIso, GRANTS_SHOWN).map((g) => ({
        id: g.id,
        deviceId: g.device_id,
        deviceHostname: g.hostname,
        subjectUsername: g.subject_username,
        target: targetName(g.target_executable_path, g.tool_name),
        riskLevel: g.risk_level,
        expiresAt: g.expires_at,
      })),
    },
    perDay: days.map((day) => ({ day, ...(perDay.get(day) ?? zeroOutcomes()) })),
    mix,
  };
}

function devices(ctx: AppContext, v: DeviceVisibility, now: Date): DashboardDevices {
  const clauses = visibilityClauses(v, onDevices('d'));
  const counts = { online: 0, offline: 0, other: 0 };
  for (const { status, n } of deviceStatusCounts(ctx.db, clauses)) {
    if (status === 'online') counts.online += n;
    else if (status === 'offline') counts.offline += n;
    else counts.other += n;
  }
  return { ...counts, presence: presenceSeries(ctx, clauses, now.getTime()) };
}

/** Devices a heartbeat would offer an upgrade to (agent-versions/upgrade.ts decides, as it does for agents). */
function agentUpdates(ctx: AppContext, v: DeviceVisibility): DashboardAgentUpdates {
  const behind: DashboardAgentUpdates['behind'] = [];
  for (const g of agentVersionGroups(ctx.db, visibilityClauses(v, onDevices('d')))) {
    const offer = upgradeFor(ctx, {
      osType: g.os_type,
      architecture: g.architecture as Architecture,
      agentVersion: g.agent_version,
    });
    if (!offer) continue;
    behind.push({
      osType: g.os_type,
      architecture: g.architecture,
      agentVersion: g.agent_version,
      latestVersion: offer.version,
      devices: g.n,
    });
  }
  behind.sort((a, b) => b.devices - a.devices || a.agentVersion.localeCompare(b.agentVersion));
  return { total: behind.reduce((sum, b) => sum + b.devices, 0), behind };
}

/** How far back the recent activity looks for entries of people and automations, in entries read. */
const AUDIT_LOOKBACK = 1000;
const AUDIT_CHUNK = 200;

/**
 * The newest entries the caller may read, leaving out agents' own reports (telemetry submissions a fleet writes
 * every few seconds, which would fill the card with one line): the work of people, keys and the system. The
 * look-back is bounded, so a log of nothing but agent reports costs a few chunks, not a scan of the whole log;
 * the audit log itself (the card's link) shows everything.
 */
function recentAudit(ctx: AppContext, auth: AuthContext): AuditEntry[] {
  const w = auditWhere(auditScope(ctx, auth), {});
  const found: AuditEntry[] = [];
  let before = Number.MAX_SAFE_INTEGER;
  for (let read = 0; read < AUDIT_LOOKBACK && found.length < AUDIT_SHOWN; read += AUDIT_CHUNK) {
    const chunk = auditEntriesBefore(ctx.db, w, before, AUDIT_CHUNK);
    for (const { entry } of chunk) if (entry.actorType !== 'agent') found.push(entry);
    const last = chunk.at(-1);
    if (!last || chunk.length < AUDIT_CHUNK) break;
    before = last.seq;
  }
  return found.slice(0, AUDIT_SHOWN);
}

export function dashboard(ctx: AppContext, auth: AuthContext, now = new Date()): DashboardResponse {
  const partner = auth.partnerId ? partnerById(ctx.db, auth.partnerId) : undefined;
  const org = auth.orgId ? organizationById(ctx.db, auth.orgId) : undefined;
  const readsDevices = callerHolds(ctx.db, auth, PERMISSIONS.DEVICES_READ);
  const v = readsDevices ? deviceVisibility(ctx, auth) : null;
  return {
    partner: partner ? { id: partner.id, name: partner.name } : null,
    organization: org ? { id: org.id, name: org.name } : null,
    generatedAt: now.toISOString(),
    elevations: v ? elevations(ctx, v, now) : null,
    devices: v ? devices(ctx, v, now) : null,
    agentUpdates: v ? agentUpdates(ctx, v) : null,
    recentAudit: callerHolds(ctx.db, auth, PERMISSIONS.AUDIT_READ) ? recentAudit(ctx, auth) : null,
  };
}
