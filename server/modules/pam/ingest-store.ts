import { statement, type Db } from '../../db/connection';

// The SQL of ingest (ingest.ts): a new request is written pending, and an automatic decision (a rule, a refusal)
// is written over it in the same transaction, so its event log shows both steps.

export interface NewRequest {
  id: string;
  orgId: string;
  deviceId: string;
  siteId: string | null;
  flowType: string;
  risk: string;
  subject: string | null;
  /** JSON array of the subject's AD groups, or null for none. */
  groups: string | null;
  path: string | null;
  hash: string | null;
  signer: string | null;
  thumbprint: string | null;
  pid: number | null;
  parent: string | null;
  commandLine: string | null;
  observedAt: string | null;
  at: string;
  tool: string | null;
  tier: number | null;
  digest: string | null;
  ruleId: string | null;
  ruleName: string | null;
  reason: string | null;
  actionExpiresAt: string | null;
}

export function insertPendingRequest(db: Db, request: NewRequest): void {
  statement(
    db,
    `INSERT INTO elevation_requests (id, org_id, device_id, site_id, flow_type, status, enforcement_status,
       risk_level, subject_username, subject_ad_groups, target_executable_path, target_executable_hash,
       target_executable_signer, target_signer_thumbprint, pid, parent_image, command_line, observed_at,
       requested_at, tool_name, risk_tier, action_digest, action_expires_at, decision_source, pam_rule_id,
       pam_rule_name, decision_reason, duration_minutes, expires_at, decided_at, updated_at)
     VALUES (@id, @orgId, @deviceId, @siteId, @flowType, 'pending', NULL, @risk, @subject, @groups, @path, @hash,
       @signer, @thumbprint, @pid, @parent, @commandLine, @observedAt, @at, @tool, @tier, @digest,
       @actionExpiresAt, NULL, @ruleId, @ruleName, @reason, NULL, NULL, NULL, @at)`,
  ).run(request);
}

export interface AutomaticDecision {
  id: string;
  status: string;
  source: 'pam_rule' | null;
  ruleId: string | null;
  ruleName: string | null;
  reason: string | null;
  duration: number | null;
  expiresAt: string | null;
  at: string;
  enforcement: string | null;
  refusal: string | null;
}

export function recordAutomaticDecision(db: Db, decision: AutomaticDecision): void {
  statement(
    db,
    `UPDATE elevation_requests SET status = @status, decision_source = @source, pam_rule_id = @ruleId,
       pam_rule_name = @ruleName, decision_reason = @reason, duration_minutes = @duration,
       expires_at = @expiresAt, decided_at = @at, enforcement_status = @enforcement,
       refusal_reason = @refusal WHERE id = @id`,
  ).run(decision);
}
