-- Privileged access (spec 2 "Elevation request", "PAM rule", "Signer group", "PAM organization configuration";
-- DESIGN §5): elevation requests and their per-technician approvals, the append-only elevation event log that
-- the audit export reads, rules, signer groups, organization configuration, approver devices (WebAuthn
-- credentials) and single-use WebAuthn challenges (kept in SQLite so a restart neither revives nor loses one).

CREATE TABLE pam_signer_groups (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  description TEXT CHECK (description IS NULL OR length(description) <= 2000),
  -- JSON array of trimmed signer names, de-duplicated case-insensitively.
  signers TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(signers)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX pam_signer_groups_org ON pam_signer_groups (org_id, name);

CREATE TABLE pam_rules (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  site_id TEXT REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  verdict TEXT NOT NULL CHECK (verdict IN ('auto_approve', 'auto_deny', 'require_approval', 'ignore')),
  suspended_verdict TEXT CHECK (suspended_verdict IS NULL OR suspended_verdict IN
    ('auto_approve', 'auto_deny', 'require_approval', 'ignore')),
  priority INTEGER NOT NULL DEFAULT 100,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  match_signer TEXT,
  -- RESTRICT: a referenced group cannot disappear under a rule (the API answers 409 first).
  match_signer_group_id TEXT REFERENCES pam_signer_groups(id) ON DELETE RESTRICT,
  match_signer_thumbprint TEXT,
  match_hash TEXT,
  match_path_glob TEXT,
  match_parent_image TEXT,
  match_command_line TEXT,
  match_user TEXT,
  match_ad_group TEXT,
  match_tool_name TEXT,
  match_risk_tier INTEGER CHECK (match_risk_tier IS NULL OR match_risk_tier BETWEEN 0 AND 4),
  match_negate TEXT CHECK (match_negate IS NULL OR json_valid(match_negate)),
  time_window TEXT CHECK (time_window IS NULL OR json_valid(time_window)),
  approval_duration_minutes INTEGER CHECK (approval_duration_minutes IS NULL OR
    approval_duration_minutes BETWEEN 1 AND 1440),
  reapproved_at TEXT,
  reapproved_by_user_id TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX pam_rules_org ON pam_rules (org_id, priority, created_at);
CREATE INDEX pam_rules_signer_group ON pam_rules (match_signer_group_id);

CREATE TABLE pam_config (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  default_unmatched_verdict TEXT NOT NULL DEFAULT 'require_approval'
    CHECK (default_unmatched_verdict IN ('require_approval', 'auto_deny')),
  default_approval_duration_minutes INTEGER NOT NULL DEFAULT 15
    CHECK (default_approval_duration_minutes BETWEEN 1 AND 1440),
  -- Kill switch: approvals are still recorded, but nothing is actuated on devices while it is off.
  actuator_enabled INTEGER NOT NULL DEFAULT 1 CHECK (actuator_enabled IN (0, 1)),
  updated_by TEXT,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE elevation_requests (
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
  assurance_level INTEGER CHECK (assurance_level IS NULL OR assurance_level BETWEEN 1 AND 3),
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
CREATE INDEX elevation_requests_org ON elevation_requests (org_id, requested_at);
CREATE INDEX elevation_requests_status ON elevation_requests (status, requested_at);
CREATE INDEX elevation_requests_expiry ON elevation_requests (status, expires_at);
CREATE INDEX elevation_requests_device ON elevation_requests (device_id, requested_at);
CREATE INDEX elevation_requests_hash ON elevation_requests (org_id, target_executable_hash);
CREATE INDEX elevation_requests_path ON elevation_requests (org_id, target_executable_path COLLATE NOCASE);

-- One row per technician notified of a pending request (the approvals inbox). The first decision wins; the
-- other technicians' rows expire.
CREATE TABLE elevation_approvals (
  id TEXT PRIMARY KEY,
  elevation_request_id TEXT NOT NULL REFERENCES elevation_requests(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  approver_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'expired')),
  decided_at TEXT,
  -- Null on an approver's own denial; the reason when the server refused their approve.
  refusal_reason TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (elevation_request_id, approver_user_id)
) STRICT;
CREATE INDEX elevation_approvals_user ON elevation_approvals (approver_user_id, status, created_at);

-- Append-only: every state change of an elevation request, written in the transaction that makes it. The
-- audit export pages through it by `seq`, so a row's position never changes once written.
CREATE TABLE elevation_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  elevation_request_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  site_id TEXT,
  device_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  status TEXT NOT NULL,
  enforcement_status TEXT,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'api_key', 'agent', 'system')),
  actor_id TEXT,
  actor_name TEXT,
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  occurred_at TEXT NOT NULL
) STRICT;
CREATE INDEX elevation_events_org ON elevation_events (org_id, occurred_at, seq);
CREATE INDEX elevation_events_request ON elevation_events (elevation_request_id, seq);

-- Approver devices: WebAuthn platform credentials a technician registered to prove presence on approvals.
CREATE TABLE pam_approver_devices (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  credential_id TEXT NOT NULL UNIQUE,
  public_key BLOB NOT NULL,
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(transports)),
  aaguid TEXT,
  device_type TEXT,
  backed_up INTEGER NOT NULL DEFAULT 0 CHECK (backed_up IN (0, 1)),
  created_at TEXT NOT NULL,
  last_used_at TEXT
) STRICT;
CREATE INDEX pam_approver_devices_user ON pam_approver_devices (user_id, created_at);

-- WebAuthn challenges: registration (elevation_request_id '') or an assertion bound to (request, caller).
-- A new challenge for the same key replaces the old one; verification deletes it first, so it works once.
CREATE TABLE webauthn_challenges (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'approve')),
  elevation_request_id TEXT NOT NULL DEFAULT '',
  challenge TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (user_id, purpose, elevation_request_id)
) STRICT;
