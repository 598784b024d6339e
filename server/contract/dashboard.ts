import type { AuditEntry } from './audit';
import type { OsType } from './devices';
import type { RiskLevel } from './pam';

// The Overview (issue 16): `GET /dashboard`, the caller's operational picture in one read. Every number covers
// what the caller could list (the same scope, site and device-group restriction as the lists the tiles link
// to); a section the caller may not read at all (no devices:read, no audit:read) is null.

/** Outcome classes of an elevation request, as the Overview counts them. */
export const ELEVATION_OUTCOMES = ['pending', 'approved', 'auto_approved', 'denied', 'expired'] as const;
/**
 * `approved`: a person approved it (whatever happened to the grant since); `auto_approved`: a software policy or
 * rule approved it; `denied`: denied by a person or a policy; `expired`: nobody decided it in time.
 */
export type ElevationOutcome = (typeof ELEVATION_OUTCOMES)[number];

export interface DashboardPendingRisk {
  risk: RiskLevel;
  count: number;
  /** When the longest-waiting request of this risk was raised; null when none waits. */
  oldestRequestedAt: string | null;
}

export interface DashboardGrant {
  id: string;
  deviceId: string;
  deviceHostname: string;
  subjectUsername: string | null;
  /** The executable's file name (or the tool, for AI tool actions); null when the request names neither. */
  target: string | null;
  riskLevel: RiskLevel;
  expiresAt: string;
}

export interface DashboardElevations {
  /** Every risk, critical first, with zero counts too. */
  pending: DashboardPendingRisk[];
  activeGrants: { total: number; endingSoonest: DashboardGrant[] };
  /** The last 7 UTC days, oldest first, today last: requests raised that day by what became of them. */
  perDay: Array<{ day: string } & Record<ElevationOutcome, number>>;
  /** The same 7 days' requests by outcome. */
  mix: Record<ElevationOutcome, number>;
}

export interface DashboardPresencePoint {
  /** The sample time (every 5 minutes over the last 24 hours, the last one now). */
  at: string;
  online: number;
  offline: number;
}

export interface DashboardDevices {
  online: number;
  offline: number;
  /** In maintenance or quarantined: neither online nor offline. */
  other: number;
  /** Devices online and not online over the last 24 hours (from recorded presence changes). */
  presence: DashboardPresencePoint[];
}

/** Devices running an agent older than the latest registered for their platform and architecture. */
export interface DashboardAgentUpdates {
  total: number;
  /** One row per platform, architecture and version found behind, most devices first. */
  behind: Array<{
    osType: OsType;
    architecture: string;
    agentVersion: string;
    latestVersion: string;
    devices: number;
  }>;
}

export interface DashboardResponse {
  /** The caller's partner and organization by name (the Overview never shows a raw id). */
  partner: { id: string; name: string } | null;
  organization: { id: string; name: string } | null;
  generatedAt: string;
  /** With devices:read. */
  elevations: DashboardElevations | null;
  devices: DashboardDevices | null;
  agentUpdates: DashboardAgentUpdates | null;
  /** With audit:read: the 8 newest entries the caller may read, agents' own reports left out. */
  recentAudit: AuditEntry[] | null;
}
