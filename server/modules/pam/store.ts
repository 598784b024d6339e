import type {
  AssuranceLevel,
  AssuranceMethod,
  DecisionSource,
  ElevationApproval,
  ElevationEvent,
  ElevationEventType,
  ElevationFlowType,
  ElevationRequest,
  ElevationStatus,
  EnforcementStatus,
  OsType,
  RiskLevel,
} from '../../contract';
import { statement, type Db } from '../../db/connection';
import { likeContains } from '../../db/like';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';

// SQL of elevation requests, their approvals and their event log, and the row -> contract mapping.

export interface ElevationRow {
  id: string;
  org_id: string;
  device_id: string;
  site_id: string | null;
  flow_type: ElevationFlowType;
  status: ElevationStatus;
  enforcement_status: EnforcementStatus | null;
  risk_level: RiskLevel;
  subject_username: string | null;
  subject_ad_groups: string | null;
  target_executable_path: string | null;
  target_executable_hash: string | null;
  target_executable_signer: string | null;
  target_signer_thumbprint: string | null;
  pid: number | null;
  parent_image: string | null;
  command_line: string | null;
  observed_at: string | null;
  requested_at: string;
  tool_name: string | null;
  risk_tier: number | null;
  action_digest: string | null;
  action_expires_at: string | null;
  decision_source: DecisionSource | null;
  matched_policy_name: string | null;
  pam_rule_id: string | null;
  pam_rule_name: string | null;
  duration_minutes: number | null;
  expires_at: string | null;
  decided_at: string | null;
  decided_by_user_id: string | null;
  approved_by_name: string | null;
  denied_by_name: string | null;
  decision_reason: string | null;
  refusal_reason: string | null;
  assurance_level: number | null;
  assurance_method: AssuranceMethod | null;
  assurance_device_id: string | null;
  assurance_flagged: number;
  actuation_command_id: string | null;
  actuation_deadline: string | null;
  revoked_at: string | null;
  revoked_by_user_id: string | null;
  revoked_by_name: string | null;
  revoke_reason: string | null;
  cleanup_command_id: string | null;
  expired_at: string | null;
  updated_at: string;
  /** Joined display fields. */
  device_hostname: string;
  org_name: string;
  device_os_type: OsType;
  site_name: string | null;
}

/** The select every read uses: display fields joined, so a row maps to the contract without another query. */
const REQUEST_COLUMNS =
  'r.*, d.hostname AS device_hostname, d.os_type AS device_os_type, o.name AS org_name, s.name AS site_name';
const REQUEST_FROM =
  'elevation_requests r JOIN devices d ON d.id = r.device_id JOIN organizations o ON o.id = r.org_id ' +
  'LEFT JOIN sites s ON s.id = r.site_id';
const SELECT_REQUEST = `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM}`;

/** A WHERE fragment over `elevation_requests r` and its bound parameters, in order. */
export interface RequestClause {
  sql: string;
  params: readonly unknown[];
}

const whereOf = (clauses: readonly RequestClause[]) => ({
  where: clauses.map((c) => c.sql),
  params: clauses.flatMap((c) => c.params),
});

/** Critical first: the rank the triage order and its index (migration 0017) share, spelled once. */
const RISK_RANK =
  "(CASE r.risk_level WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)";

export type RequestOrder = 'risk' | 'oldest' | 'newest';

/** Each order ends with the id, so pages never overlap. */
export const REQUEST_ORDER_BY: Record<RequestOrder, string> = {
  risk: `${RISK_RANK}, r.requested_at ASC, r.id ASC`,
  oldest: 'r.requested_at ASC, r.id ASC',
  newest: 'r.requested_at DESC, r.id DESC',
};

/** One page of requests in the given order. */
export function pagedRequests(
  db: Db,
  clauses: readonly RequestClause[],
  order: RequestOrder,
  page: PageRequest,
): { rows: ElevationRow[]; total: number } {
  return pagedQuery<ElevationRow>(db, {
    select: REQUEST_COLUMNS,
    from: REQUEST_FROM,
    ...whereOf(clauses),
    orderBy: REQUEST_ORDER_BY[order],
    page,
  });
}

/** The inbox's filters over `elevation_requests r` (and its joined device `d`); absent ones are not applied. */
export interface RequestFilters {
  orgId?: string | undefined;
  status?: ElevationStatus | undefined;
  flowType?: ElevationFlowType | undefined;
  deviceId?: string | undefined;
  siteId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  riskLevel?: readonly RiskLevel[] | undefined;
  user?: string | undefined;
  device?: string | undefined;
  q?: string | undefined;
}

/** Columns the inbox search looks in: what is asking, for whom, on which machine. */
const SEARCHED = [
  'r.target_executable_path',
  'r.target_executable_signer',
  'r.command_line',
  'r.tool_name',
  'r.subject_username',
  'd.hostname',
];

export function filterClauses(f: RequestFilters): RequestClause[] {
  const clauses: RequestClause[] = [];
  const add = (sql: string, ...params: unknown[]) => clauses.push({ sql, params });
  if (f.orgId) add('r.org_id = ?', f.orgId);
  if (f.status) add('r.status = ?', f.status);
  if (f.flowType) add('r.flow_type = ?', f.flowType);
  if (f.deviceId) add('r.device_id = ?', f.deviceId);
  if (f.siteId) add('r.site_id = ?', f.siteId);
  if (f.from) add('r.requested_at >= ?', f.from);
  if (f.to) add('r.requested_at < ?', f.to);
  // One JSON parameter, so the statement text (and its cached plan) is the same for any number of levels.
  if (f.riskLevel?.length)
    add('r.risk_level IN (SELECT value FROM json_each(?))', JSON.stringify(f.riskLevel));
  if (f.user) add("r.subject_username LIKE ? ESCAPE '\\'", likeContains(f.user));
  if (f.device) add("d.hostname LIKE ? ESCAPE '\\'", likeContains(f.device));
  if (f.q) {
    const pattern = likeContains(f.q);
    add(`(${SEARCHED.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`, ...SEARCHED.map(() => pattern));
  }
  return clauses;
}

/** Pending requests for the same file (hash) from the same signer (unsigned matches unsigned), but not `id`. */
export function sameFileClauses(
  row: Pick<ElevationRow, 'id' | 'target_executable_hash' | 'target_executable_signer'>,
): RequestClause[] {
  return [
    { sql: "r.status = 'pending'", params: [] },
    { sql: 'r.target_executable_hash = ?', params: [row.target_executable_hash] },
    { sql: 'r.target_executable_signer IS ?', params: [row.target_executable_signer] },
    { sql: 'r.id != ?', params: [row.id] },
  ];
}

/** Requests matching every clause in the given order, at most `limit` of them. */
export function requestsWhere(
  db: Db,
  clauses: readonly RequestClause[],
  orderBy: string,
  limit: number,
): ElevationRow[] {
  const { where, params } = whereOf(clauses);
  return statement(
    db,
    `${SELECT_REQUEST} WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY ${orderBy} LIMIT ?`,
  ).all(...params, limit) as ElevationRow[];
}

export function toElevationRequest(row: ElevationRow): ElevationRequest {
  return {
    id: row.id,
    orgId: row.org_id,
    deviceId: row.device_id,
    deviceHostname: row.device_hostname,
    orgName: row.org_name,
    deviceOsType: row.device_os_type,
    siteId: row.site_id,
    siteName: row.site_name,
    flowType: row.flow_type,
    status: row.status,
    enforcementStatus: row.enforcement_status,
    riskLevel: row.risk_level,
    subjectUsername: row.subject_username,
    subjectAdGroups: row.subject_ad_groups ? (JSON.parse(row.subject_ad_groups) as string[]) : [],
    targetExecutablePath: row.target_executable_path,
    targetExecutableHash: row.target_executable_hash,
    targetExecutableSigner: row.target_executable_signer,
    targetSignerThumbprint: row.target_signer_thumbprint,
    pid: row.pid,
    parentImage: row.parent_image,
    commandLine: row.command_line,
    observedAt: row.observed_at,
    requestedAt: row.requested_at,
    toolName: row.tool_name,
    riskTier: row.risk_tier,
    actionDigest: row.action_digest,
    decisionSource: row.decision_source,
    matchedPolicyName: row.matched_policy_name,
    pamRuleId: row.pam_rule_id,
    pamRuleName: row.pam_rule_name,
    durationMinutes: row.duration_minutes,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    approvedByName: row.approved_by_name,
    deniedByName: row.denied_by_name,
    revokedByName: row.revoked_by_name,
    decisionReason: row.decision_reason,
    refusalReason: row.refusal_reason,
    revokeReason: row.revoke_reason,
    assuranceLevel: row.assurance_level as AssuranceLevel | null,
    assuranceMethod: row.assurance_method,
    assuranceDeviceId: row.assurance_device_id,
    assuranceFlagged: row.assurance_flagged === 1,
  };
}

export function requestRow(db: Db, id: string): ElevationRow | undefined {
  return statement(db, `${SELECT_REQUEST} WHERE r.id = ?`).get(id) as ElevationRow | undefined;
}

/** Records which command grants (`actuation`) or removes (`cleanup`) the elevation on its device. */
export function linkCommand(
  db: Db,
  requestId: string,
  role: 'actuation' | 'cleanup',
  commandId: string,
): void {
  const column = role === 'actuation' ? 'actuation_command_id' : 'cleanup_command_id';
  statement(db, `UPDATE elevation_requests SET ${column} = ? WHERE id = ?`).run(commandId, requestId);
}

/** The columns a state change may set; `updated_at` is always set. */
export type RequestPatch = Partial<
  Omit<
    ElevationRow,
    | 'id'
    | 'org_id'
    | 'device_id'
    | 'device_hostname'
    | 'device_os_type'
    | 'org_name'
    | 'site_name'
    | 'updated_at'
  >
>;

/**
 * Compare-and-swap: applies `patch` only while the row is in one of `from` (and, when given, `extra` holds).
 * Returns whether this caller won. Every decision goes through here, so two deciders can never both win.
 */
export function transition(
  db: Db,
  id: string,
  from: readonly ElevationStatus[],
  patch: RequestPatch,
  extra = '1 = 1',
): boolean {
  const columns = Object.keys(patch);
  const sets = [...columns.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ');
  const params: Record<string, unknown> = { ...patch, id, updated_at: new Date().toISOString() };
  from.forEach((status, i) => (params[`from${i}`] = status));
  const statuses = from.map((_, i) => `@from${i}`).join(', ');
  const result = statement(
    db,
    `UPDATE elevation_requests SET ${sets} WHERE id = @id AND status IN (${statuses}) AND (${extra})`,
  ).run(params);
  return result.changes === 1;
}

// ---- Approvals (the per-technician inbox slots) ---------------------------------------------------------------

interface ApprovalRow {
  id: string;
  elevation_request_id: string;
  approver_user_id: string;
  status: ElevationApproval['status'];
  decided_at: string | null;
  refusal_reason: string | null;
  created_at: string;
}

export function toApproval(row: ApprovalRow): ElevationApproval {
  return {
    id: row.id,
    elevationRequestId: row.elevation_request_id,
    approverUserId: row.approver_user_id,
    status: row.status,
    decidedAt: row.decided_at,
    refusalReason: row.refusal_reason,
    createdAt: row.created_at,
  };
}

export function approvalOf(db: Db, requestId: string, userId: string): ElevationApproval | null {
  const row = statement(
    db,
    'SELECT * FROM elevation_approvals WHERE elevation_request_id = ? AND approver_user_id = ?',
  ).get(requestId, userId) as ApprovalRow | undefined;
  return row ? toApproval(row) : null;
}

// ---- Events ------------------------------------------------------------------------------------------------------

interface EventRow {
  seq: number;
  id: string;
  elevation_request_id: string;
  event_type: ElevationEventType;
  status: ElevationStatus;
  enforcement_status: EnforcementStatus | null;
  actor_type: ElevationEvent['actorType'];
  actor_id: string | null;
  actor_name: string | null;
  details: string;
  occurred_at: string;
}

export function timelineOf(db: Db, requestId: string): ElevationEvent[] {
  const rows = statement(
    db,
    'SELECT * FROM elevation_events WHERE elevation_request_id = ? ORDER BY seq',
  ).all(requestId) as EventRow[];
  return rows.map((row) => ({
    seq: row.seq,
    id: row.id,
    elevationRequestId: row.elevation_request_id,
    eventType: row.event_type,
    status: row.status,
    enforcementStatus: row.enforcement_status,
    actorType: row.actor_type,
    actorId: row.actor_id,
    actorName: row.actor_name,
    details: JSON.parse(row.details) as Record<string, unknown>,
    occurredAt: row.occurred_at,
  }));
}
