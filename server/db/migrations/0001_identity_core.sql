-- Identity core: tenants, roles, users and their associations, sessions, MFA and the audit chain.
-- Timestamps are ISO 8601 text in UTC; booleans are 0/1; JSON objects are text checked with json_valid.

CREATE TABLE partners (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL DEFAULT 'msp' CHECK (type IN ('msp', 'enterprise', 'internal')),
  plan TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'starter', 'community', 'pro', 'enterprise', 'unlimited')),
  max_organizations INTEGER,
  max_devices INTEGER,
  settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  service_management_mode TEXT NOT NULL DEFAULT 'native',
  service_management_psa_connection_id TEXT,
  sso_config TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sso_config)),
  billing_email TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active', 'suspended', 'churned', 'offboarding')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners(id),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'customer' CHECK (type IN ('customer', 'internal')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'trial', 'churned')),
  max_devices INTEGER,
  settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  sso_config TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sso_config)),
  contract_start TEXT,
  contract_end TEXT,
  billing_contact TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(billing_contact)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;
CREATE INDEX organizations_partner ON organizations (partner_id);

CREATE TABLE roles (
  id TEXT PRIMARY KEY,
  partner_id TEXT REFERENCES partners(id),
  org_id TEXT REFERENCES organizations(id),
  parent_role_id TEXT REFERENCES roles(id),
  scope TEXT NOT NULL CHECK (scope IN ('system', 'partner', 'organization')),
  name TEXT NOT NULL CHECK (length(name) <= 100),
  description TEXT,
  is_system INTEGER NOT NULL DEFAULT 0 CHECK (is_system IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE role_permissions (
  role_id TEXT NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  resource TEXT NOT NULL CHECK (length(resource) <= 100),
  action TEXT NOT NULL CHECK (length(action) <= 50),
  constraints TEXT CHECK (constraints IS NULL OR json_valid(constraints)),
  PRIMARY KEY (role_id, resource, action)
) STRICT;

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) <= 255),
  name TEXT NOT NULL CHECK (length(name) <= 255),
  avatar_url TEXT,
  password_hash TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'invited', 'disabled')),
  mfa_enabled INTEGER NOT NULL DEFAULT 0 CHECK (mfa_enabled IN (0, 1)),
  mfa_method TEXT CHECK (mfa_method IN ('totp', 'sms')),
  mfa_secret TEXT,
  -- Last accepted TOTP time step: a code is accepted once, so a shoulder-surfed code cannot be replayed.
  mfa_last_time_step INTEGER,
  phone_number TEXT,
  phone_verified INTEGER NOT NULL DEFAULT 0 CHECK (phone_verified IN (0, 1)),
  -- Bumped to invalidate every access token of the user at once (logout, password change, disable).
  token_version INTEGER NOT NULL DEFAULT 0,
  last_login_at TEXT,
  password_changed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

-- Scope comes from the association a user holds: platform administrators (system), partner or organization.
CREATE TABLE platform_admins (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  role_id TEXT NOT NULL REFERENCES roles(id),
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE partner_users (
  partner_id TEXT NOT NULL REFERENCES partners(id),
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id TEXT NOT NULL REFERENCES roles(id),
  org_access TEXT NOT NULL DEFAULT 'none' CHECK (org_access IN ('all', 'selected', 'none')),
  org_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(org_ids)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (partner_id, user_id)
) STRICT;
CREATE INDEX partner_users_user ON partner_users (user_id);

CREATE TABLE organization_users (
  org_id TEXT NOT NULL REFERENCES organizations(id),
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id TEXT NOT NULL REFERENCES roles(id),
  site_ids TEXT CHECK (site_ids IS NULL OR json_valid(site_ids)),
  device_group_ids TEXT CHECK (device_group_ids IS NULL OR json_valid(device_group_ids)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id)
) STRICT;
CREATE INDEX organization_users_user ON organization_users (user_id);

-- Rotating refresh tokens. A family is one sign-in; presenting a rotated (replaced) token revokes the family.
CREATE TABLE refresh_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  mfa INTEGER NOT NULL CHECK (mfa IN (0, 1)),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  replaced_by TEXT,
  revoked_at TEXT,
  revoked_reason TEXT,
  ip_address TEXT,
  user_agent TEXT
) STRICT;
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- The second login step: a password was right, an MFA code is still owed. Valid 5 minutes, single use.
CREATE TABLE mfa_challenges (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  consumed_at TEXT,
  ip_address TEXT,
  user_agent TEXT
) STRICT;

-- TOTP enrollment in progress: held 10 minutes, then abandoned. Secret and recovery codes are sealed
-- (AES-256-GCM) until enable moves them to the user: the secret stays sealed, the codes become hashes.
CREATE TABLE mfa_setups (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  recovery_codes TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;

CREATE TABLE mfa_recovery_codes (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at TEXT
) STRICT;
CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes (user_id);

-- Fixed-window counters for login and MFA rate limits; kept in SQLite so a restart does not reset them.
CREATE TABLE rate_limits (
  bucket TEXT NOT NULL,
  subject TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (bucket, subject)
) STRICT, WITHOUT ROWID;

-- Audit log with a hash chain per organization (org_id NULL is the platform chain, see audit/chain.ts).
CREATE TABLE audit_logs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT,
  timestamp TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'api_key', 'agent', 'system')),
  actor_id TEXT NOT NULL,
  actor_email TEXT CHECK (actor_email IS NULL OR length(actor_email) <= 255),
  action TEXT NOT NULL CHECK (length(action) <= 100),
  resource_type TEXT NOT NULL CHECK (length(resource_type) <= 50),
  resource_id TEXT,
  resource_name TEXT CHECK (resource_name IS NULL OR length(resource_name) <= 255),
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  ip_address TEXT CHECK (ip_address IS NULL OR length(ip_address) <= 45),
  user_agent TEXT,
  result TEXT NOT NULL DEFAULT 'success' CHECK (result IN ('success', 'failure', 'denied')),
  error_message TEXT,
  prev_checksum TEXT NOT NULL,
  checksum TEXT NOT NULL CHECK (length(checksum) <= 128)
) STRICT;
CREATE INDEX audit_logs_org_seq ON audit_logs (org_id, seq);
CREATE INDEX audit_logs_org_time ON audit_logs (org_id, timestamp);

-- The head of each chain, written in the same transaction as the entry: verification compares it with the last
-- row, so deleting the newest entries is detected as well as editing or removing one in the middle.
CREATE TABLE audit_chain_heads (
  chain TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  last_checksum TEXT NOT NULL,
  entry_count INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Built-in roles. Fixed ids so every install and every test refers to the same system roles.
INSERT INTO roles (id, scope, name, description, is_system, created_at, updated_at) VALUES
  ('00000000-0000-4000-8000-000000000001', 'system', 'Platform Administrator',
   'Full administration of every partner, organization and setting', 1,
   strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ'));
INSERT INTO role_permissions (role_id, resource, action) VALUES ('00000000-0000-4000-8000-000000000001', '*', '*');
