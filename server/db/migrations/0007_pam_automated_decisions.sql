-- Automated elevation decisions (DESIGN §5): an API key holding the explicit `pam:approve` scope may decide a
-- request, recorded at assurance level 0 with method `automation`. SQLite cannot widen a CHECK in place, so the
-- table is rebuilt the way SQLite documents (new table, copy, drop, rename, indexes again); migrate() runs
-- this with foreign-key enforcement off, so dropping the old table does not cascade into elevation_approvals,
-- whose rows keep pointing at the same ids under the same table name. Columns are unchanged and in order.

CREATE TABLE elevation_requests_next (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  device_id TEXT NOT NULL REFERENCES devices(id),
  -- Copied from the device at ingest: a restricted technician's view must not change when a device moves.
  site_id TEXT,
  flow_type TEXT NOT NULL CHECK (flow_type IN ('uac_intercept', 'tech_jit_admin', 'ai_tool_action')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'auto_approved', 'denied', 'expired', 'revoked',
    'actuating')),
  enforcement_status TEXT,
  risk_level TEXT NOT NULL CHECK (risk_level IN ('low', 'medium', 'high', 'critical')),
  subject_username TEXT,
  subject_ad_groups TEXT CHECK (subject_ad_groups IS NULL OR json_valid(subject_ad_groups)),
  target_executable_path TEXT,
  target_executable_hash TEXT,
  target_executable_signer TEXT,
  target_signer_thumbprint TEXT,
  pid INTEGER,
  parent_image TEXT,
  command_line TEXT,
  observed_at TEXT,
  requested_at TEXT NOT NULL,
  tool_name TEXT,
  risk_tier INTEGER CHECK (risk_tier IS NULL OR risk_tier BETWEEN 0 AND 4),
  action_digest TEXT,
  -- When the AI session stops waiting for this tool action (409 on a later decision).
  action_expires_at TEXT,
  decision_source TEXT CHECK (decision_source IS NULL OR decision_source IN ('software_policy', 'pam_rule',
    'human', 'default')),
  matched_policy_name TEXT,
  pam_rule_id TEXT,
  pam_rule_name TEXT,
  duration_minutes INTEGER,
  expires_at TEXT,
  decided_at TEXT,
  decided_by_user_id TEXT,
  approved_by_name TEXT,
  denied_by_name TEXT,
  decision_reason TEXT,
  refusal_reason TEXT,
  -- 0: an API key with the pam:approve scope decided (method `automation`): no person, below every floor.
  assurance_level INTEGER CHECK (assurance_level IS NULL OR assurance_level BETWEEN 0 AND 3),
  assurance_method TEXT,
  assurance_device_id TEXT,
  -- Approved under a `grace` step-up policy below the floor for its risk.
  assurance_flagged INTEGER NOT NULL DEFAULT 0 CHECK (assurance_flagged IN (0, 1)),
  actuation_command_id TEXT,
  actuation_deadline TEXT,
  revoked_at TEXT,
  revoked_by_user_id TEXT,
  revoked_by_name TEXT,
  revoke_reason TEXT,
  cleanup_command_id TEXT,
  expired_at TEXT,
  updated_at TEXT NOT NULL
) STRICT;

INSERT INTO elevation_requests_next SELECT * FROM elevation_requests;
DROP TABLE elevation_requests;
ALTER TABLE elevation_requests_next RENAME TO elevation_requests;

CREATE INDEX elevation_requests_org ON elevation_requests (org_id, requested_at);
CREATE INDEX elevation_requests_status ON elevation_requests (status, requested_at);
CREATE INDEX elevation_requests_expiry ON elevation_requests (status, expires_at);
CREATE INDEX elevation_requests_device ON elevation_requests (device_id, requested_at);
CREATE INDEX elevation_requests_hash ON elevation_requests (org_id, target_executable_hash);
CREATE INDEX elevation_requests_path ON elevation_requests (org_id, target_executable_path COLLATE NOCASE);
