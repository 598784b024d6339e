import type { NegatableCriterion, PamRule, PamTimeWindow, PamVerdict, SignerGroup } from '../../../contract';
import { statement, type Db } from '../../../db/connection';

// SQL of PAM rules, signer groups and organization configuration, and the row -> contract mapping. Statements are
// prepared once per connection: the rule matcher runs on every elevation-request ingest.

export interface PamRuleRow {
  id: string;
  org_id: string;
  site_id: string | null;
  name: string;
  verdict: PamVerdict;
  suspended_verdict: PamVerdict | null;
  priority: number;
  enabled: number;
  match_signer: string | null;
  match_signer_group_id: string | null;
  match_signer_thumbprint: string | null;
  match_hash: string | null;
  match_path_glob: string | null;
  match_parent_image: string | null;
  match_command_line: string | null;
  match_user: string | null;
  match_ad_group: string | null;
  match_tool_name: string | null;
  match_risk_tier: number | null;
  match_negate: string | null;
  time_window: string | null;
  approval_duration_minutes: number | null;
  reapproved_at: string | null;
  reapproved_by_user_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SignerGroupRow {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  signers: string;
  created_at: string;
  updated_at: string;
}

/** Throws on corrupt JSON: a rule that cannot be read cannot be evaluated (the decision chain records pending). */
export function toPamRule(row: PamRuleRow): PamRule {
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    name: row.name,
    verdict: row.verdict,
    suspendedVerdict: row.suspended_verdict,
    priority: row.priority,
    enabled: row.enabled === 1,
    matchSigner: row.match_signer,
    matchSignerGroupId: row.match_signer_group_id,
    matchSignerThumbprint: row.match_signer_thumbprint,
    matchHash: row.match_hash,
    matchPathGlob: row.match_path_glob,
    matchParentImage: row.match_parent_image,
    matchCommandLine: row.match_command_line,
    matchUser: row.match_user,
    matchAdGroup: row.match_ad_group,
    matchToolName: row.match_tool_name,
    matchRiskTier: row.match_risk_tier,
    matchNegate: row.match_negate === null ? null : (JSON.parse(row.match_negate) as NegatableCriterion[]),
    timeWindow: row.time_window === null ? null : (JSON.parse(row.time_window) as PamTimeWindow),
    approvalDurationMinutes: row.approval_duration_minutes,
    reapprovedAt: row.reapproved_at,
    reapprovedByUserId: row.reapproved_by_user_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a rule write sets, in contract form. */
export type RuleFields = Omit<PamRule, 'id' | 'orgId' | 'createdAt' | 'updatedAt'>;

function ruleColumns(fields: RuleFields) {
  return {
    site_id: fields.siteId,
    name: fields.name,
    verdict: fields.verdict,
    suspended_verdict: fields.suspendedVerdict,
    priority: fields.priority,
    enabled: fields.enabled ? 1 : 0,
    match_signer: fields.matchSigner,
    match_signer_group_id: fields.matchSignerGroupId,
    match_signer_thumbprint: fields.matchSignerThumbprint,
    match_hash: fields.matchHash,
    match_path_glob: fields.matchPathGlob,
    match_parent_image: fields.matchParentImage,
    match_command_line: fields.matchCommandLine,
    match_user: fields.matchUser,
    match_ad_group: fields.matchAdGroup,
    match_tool_name: fields.matchToolName,
    match_risk_tier: fields.matchRiskTier,
    match_negate:
      fields.matchNegate && fields.matchNegate.length > 0 ? JSON.stringify(fields.matchNegate) : null,
    time_window: fields.timeWindow ? JSON.stringify(fields.timeWindow) : null,
    approval_duration_minutes: fields.approvalDurationMinutes,
    reapproved_at: fields.reapprovedAt,
    reapproved_by_user_id: fields.reapprovedByUserId,
  };
}

export function toSignerGroup(row: SignerGroupRow): SignerGroup {
  let signers: string[] = [];
  try {
    const parsed = JSON.parse(row.signers) as unknown;
    if (Array.isArray(parsed)) signers = parsed.filter((s): s is string => typeof s === 'string');
  } catch {
    // A corrupt list reads as empty here; the matcher refuses it (evaluator error) instead.
  }
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    signers,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const RULE_ORDER = 'ORDER BY priority ASC, created_at ASC, id ASC';
const SET_COLUMNS = `site_id = @site_id, name = @name, verdict = @verdict, suspended_verdict = @suspended_verdict,
  priority = @priority, enabled = @enabled, match_signer = @match_signer,
  match_signer_group_id = @match_signer_group_id, match_signer_thumbprint = @match_signer_thumbprint,
  match_hash = @match_hash, match_path_glob = @match_path_glob, match_parent_image = @match_parent_image,
  match_command_line = @match_command_line, match_user = @match_user, match_ad_group = @match_ad_group,
  match_tool_name = @match_tool_name, match_risk_tier = @match_risk_tier, match_negate = @match_negate,
  time_window = @time_window, approval_duration_minutes = @approval_duration_minutes,
  reapproved_at = @reapproved_at, reapproved_by_user_id = @reapproved_by_user_id, updated_at = @updated_at`;

function prepare(db: Db) {
  return {
    enabledForDecision: statement(
      db,
      `SELECT * FROM pam_rules WHERE org_id = ? AND enabled = 1 AND (site_id IS NULL OR site_id = ?) ${RULE_ORDER}`,
    ),
    signerGroupsOfOrg: statement(db, 'SELECT id, signers FROM pam_signer_groups WHERE org_id = ?'),
    ruleById: statement(db, 'SELECT * FROM pam_rules WHERE id = ?'),
    rulesOfOrg: statement(db, `SELECT * FROM pam_rules WHERE org_id = ? ${RULE_ORDER}`),
    rulesOfOrgInSites: statement(
      db,
      `SELECT * FROM pam_rules WHERE org_id = ?
       AND (site_id IS NULL OR site_id IN (SELECT value FROM json_each(?))) ${RULE_ORDER}`,
    ),
    enabledRules: statement(
      db,
      `SELECT * FROM pam_rules WHERE enabled = 1 ORDER BY org_id, priority, created_at, id`,
    ),
    insertRule: statement(
      db,
      `INSERT INTO pam_rules (id, org_id, site_id, name, verdict, suspended_verdict, priority, enabled,
        match_signer, match_signer_group_id, match_signer_thumbprint, match_hash, match_path_glob,
        match_parent_image, match_command_line, match_user, match_ad_group, match_tool_name, match_risk_tier,
        match_negate, time_window, approval_duration_minutes, reapproved_at, reapproved_by_user_id, created_by,
        created_at, updated_at)
       VALUES (@id, @org_id, @site_id, @name, @verdict, @suspended_verdict, @priority, @enabled, @match_signer,
        @match_signer_group_id, @match_signer_thumbprint, @match_hash, @match_path_glob, @match_parent_image,
        @match_command_line, @match_user, @match_ad_group, @match_tool_name, @match_risk_tier, @match_negate,
        @time_window, @approval_duration_minutes, @reapproved_at, @reapproved_by_user_id, @created_by,
        @created_at, @updated_at)`,
    ),
    updateRule: statement(db, `UPDATE pam_rules SET ${SET_COLUMNS} WHERE id = @id`),
    deleteRule: statement(db, 'DELETE FROM pam_rules WHERE id = ?'),
    rulesUsingGroup: statement(db, 'SELECT count(*) AS n FROM pam_rules WHERE match_signer_group_id = ?'),
    groupById: statement(db, 'SELECT * FROM pam_signer_groups WHERE id = ?'),
    groupsOfOrg: statement(
      db,
      'SELECT * FROM pam_signer_groups WHERE org_id = ? ORDER BY name COLLATE NOCASE, id',
    ),
    groupByName: statement(
      db,
      'SELECT id FROM pam_signer_groups WHERE org_id = ? AND name = ? COLLATE NOCASE AND id != ?',
    ),
    insertGroup: statement(
      db,
      `INSERT INTO pam_signer_groups (id, org_id, name, description, signers, created_at, updated_at)
       VALUES (@id, @org_id, @name, @description, @signers, @created_at, @updated_at)`,
    ),
    updateGroup: statement(
      db,
      `UPDATE pam_signer_groups SET name = @name, description = @description, signers = @signers,
       updated_at = @updated_at WHERE id = @id`,
    ),
    deleteGroup: statement(db, 'DELETE FROM pam_signer_groups WHERE id = ?'),
    upsertConfig: statement(
      db,
      `INSERT INTO pam_config (org_id, default_unmatched_verdict, default_approval_duration_minutes,
        actuator_enabled, updated_by, updated_at)
       VALUES (@org_id, @verdict, @minutes, @actuator, @updated_by, @updated_at)
       ON CONFLICT (org_id) DO UPDATE SET default_unmatched_verdict = excluded.default_unmatched_verdict,
        default_approval_duration_minutes = excluded.default_approval_duration_minutes,
        actuator_enabled = excluded.actuator_enabled, updated_by = excluded.updated_by,
        updated_at = excluded.updated_at`,
    ),
  };
}

const cache = new WeakMap<Db, ReturnType<typeof prepare>>();

export function ruleStatements(db: Db): ReturnType<typeof prepare> {
  let statements = cache.get(db);
  if (!statements) {
    statements = prepare(db);
    cache.set(db, statements);
  }
  return statements;
}

export function policyStore(db: Db) {
  const s = ruleStatements(db);
  return {
    ruleById: (id: string) => s.ruleById.get(id) as PamRuleRow | undefined,
    rulesOfOrg: (orgId: string, sites: ReadonlySet<string> | null) =>
      (sites === null
        ? s.rulesOfOrg.all(orgId)
        : s.rulesOfOrgInSites.all(orgId, JSON.stringify([...sites]))) as PamRuleRow[],
    enabledRules: () => s.enabledRules.all() as PamRuleRow[],
    insertRule(row: { id: string; orgId: string; createdBy: string; at: string; fields: RuleFields }) {
      s.insertRule.run({
        id: row.id,
        org_id: row.orgId,
        created_by: row.createdBy,
        created_at: row.at,
        updated_at: row.at,
        ...ruleColumns(row.fields),
      });
    },
    updateRule: (id: string, fields: RuleFields, at: string): boolean =>
      s.updateRule.run({ id, updated_at: at, ...ruleColumns(fields) }).changes === 1,
    deleteRule: (id: string): boolean => s.deleteRule.run(id).changes === 1,
    rulesUsingGroup: (groupId: string) => (s.rulesUsingGroup.get(groupId) as { n: number }).n,
    groupById: (id: string) => s.groupById.get(id) as SignerGroupRow | undefined,
    groupsOfOrg: (orgId: string) => s.groupsOfOrg.all(orgId) as SignerGroupRow[],
    groupNameTaken: (orgId: string, name: string, exceptId = '') =>
      s.groupByName.get(orgId, name, exceptId) !== undefined,
    insertGroup: (row: SignerGroupRow) => void s.insertGroup.run(row),
    updateGroup: (row: Pick<SignerGroupRow, 'id' | 'name' | 'description' | 'signers' | 'updated_at'>) =>
      s.updateGroup.run(row).changes === 1,
    deleteGroup: (id: string) => s.deleteGroup.run(id).changes === 1,
    upsertConfig: (row: {
      org_id: string;
      verdict: string;
      minutes: number;
      actuator: number;
      updated_by: string;
      updated_at: string;
    }) => void s.upsertConfig.run(row),
  };
}
