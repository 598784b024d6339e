import { statement, type Db } from '../../../db/connection';
import type { Clause } from '../../devices';
import type { ElevationAuditRow } from './schemas';

// SQL of the export: elevation_events in one organization and window, after a `seq`, in `seq` order, joined to
// their request and device. Both joins also match the organization, so a row can never pick up another tenant's
// request or device data even if ids were ever reused.

export interface ExportPageQuery {
  orgId: string;
  /** ISO UTC with milliseconds, the format `occurred_at` is stored in, so text comparison is time comparison. */
  from: string;
  to: string;
  afterSeq: number;
  siteId: string | null;
  deviceId: string | null;
  elevationRequestId: string | null;
  eventType: string | null;
  /** Restricted callers: the restriction clauses over `e` (server/modules/devices/access.ts), else empty. */
  restrictions: Clause[];
  /** Rows to read; the service asks for one more than the page to learn whether another page follows. */
  take: number;
}

interface EventRow {
  seq: number;
  id: string;
  event_type: string;
  occurred_at: string;
  org_id: string;
  site_id: string | null;
  device_id: string;
  hostname: string | null;
  elevation_request_id: string;
  flow_type: string | null;
  status: string;
  enforcement_status: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  subject_username: string | null;
  target_executable_path: string | null;
  target_executable_hash: string | null;
  target_executable_signer: string | null;
  tool_name: string | null;
  risk_tier: number | null;
  risk_level: string | null;
  decision_source: string | null;
  pam_rule_id: string | null;
  pam_rule_name: string | null;
  assurance_level: number | null;
  assurance_method: string | null;
  reason: string | number | null;
}

const SELECT = `SELECT e.seq, e.id, e.event_type, e.occurred_at, e.org_id, e.site_id, e.device_id, d.hostname,
    e.elevation_request_id, r.flow_type, e.status, e.enforcement_status, e.actor_type, e.actor_id, e.actor_name,
    r.subject_username, r.target_executable_path, r.target_executable_hash, r.target_executable_signer,
    r.tool_name, r.risk_tier, r.risk_level, r.decision_source, r.pam_rule_id, r.pam_rule_name,
    r.assurance_level, r.assurance_method,
    CASE WHEN json_type(e.details, '$.reason') IN ('text', 'integer', 'real')
      THEN json_extract(e.details, '$.reason') END AS reason
  FROM elevation_events e
  LEFT JOIN elevation_requests r ON r.id = e.elevation_request_id AND r.org_id = e.org_id
  LEFT JOIN devices d ON d.id = e.device_id AND d.org_id = e.org_id`;

export function readExportPage(db: Db, q: ExportPageQuery): ElevationAuditRow[] {
  const where = ['e.org_id = ?', 'e.occurred_at >= ?', 'e.occurred_at < ?', 'e.seq > ?'];
  const params: unknown[] = [q.orgId, q.from, q.to, q.afterSeq];
  const equal = (column: string, value: string | null) => {
    if (value === null) return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  equal('e.site_id', q.siteId);
  equal('e.device_id', q.deviceId);
  equal('e.elevation_request_id', q.elevationRequestId);
  equal('e.event_type', q.eventType);
  for (const clause of q.restrictions) {
    where.push(clause.sql);
    params.push(...clause.params);
  }
  params.push(q.take);
  const rows = statement(db, `${SELECT} WHERE ${where.join(' AND ')} ORDER BY e.seq LIMIT ?`).all(
    ...params,
  ) as EventRow[];
  return rows.map(toRow);
}

function toRow(r: EventRow): ElevationAuditRow {
  return {
    seq: r.seq,
    eventId: r.id,
    eventType: r.event_type,
    occurredAt: r.occurred_at,
    orgId: r.org_id,
    siteId: r.site_id,
    deviceId: r.device_id,
    deviceHostname: r.hostname,
    elevationRequestId: r.elevation_request_id,
    flowType: r.flow_type,
    status: r.status,
    enforcementStatus: r.enforcement_status,
    actorType: r.actor_type,
    actorId: r.actor_id,
    actorName: r.actor_name,
    subjectUsername: r.subject_username,
    targetExecutablePath: r.target_executable_path,
    targetExecutableHash: r.target_executable_hash,
    targetExecutableSigner: r.target_executable_signer,
    toolName: r.tool_name,
    riskTier: r.risk_tier,
    riskLevel: r.risk_level,
    decisionSource: r.decision_source,
    pamRuleId: r.pam_rule_id,
    pamRuleName: r.pam_rule_name,
    assuranceLevel: r.assurance_level,
    assuranceMethod: r.assurance_method,
    reason: r.reason === null ? null : String(r.reason),
  };
}
