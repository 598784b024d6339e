-- Tenancy and access (spec document 1): sites, API keys, enrollment keys, emailed tokens, SMS codes, built-in
-- roles, partner offboarding and sliding-window rate limits.

-- When offboarding started: the reaper turns the partner `churned` once the drain window has passed.
ALTER TABLE partners ADD COLUMN offboarding_started_at TEXT;

CREATE TABLE sites (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL CHECK (length(name) <= 255),
  address TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(address)),
  timezone TEXT NOT NULL DEFAULT 'UTC' CHECK (length(timezone) <= 50),
  contact TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(contact)),
  settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX sites_org ON sites (org_id);

-- API keys: the key itself is shown once and stored only as its SHA-256 hash.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  scopes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(scopes)),
  expires_at TEXT,
  rate_limit INTEGER NOT NULL DEFAULT 1000 CHECK (rate_limit BETWEEN 1 AND 100000),
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired', 'revoked')),
  revoked_at TEXT,
  revoked_reason TEXT,
  last_used_at TEXT,
  usage_count INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

-- Enrollment keys: SHA-256 of (pepper, key); a changed pepper makes old keys fail, as the spec says.
CREATE TABLE enrollment_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  site_id TEXT REFERENCES sites(id) ON DELETE SET NULL,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  key_hash TEXT NOT NULL UNIQUE,
  usage_count INTEGER NOT NULL DEFAULT 0,
  max_usage INTEGER CHECK (max_usage IS NULL OR max_usage BETWEEN 1 AND 100000),
  expires_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX enrollment_keys_org ON enrollment_keys (org_id, created_at);

-- Single-use tokens sent by email: registration and verification, invitations, password resets.
-- `payload` holds what the token completes (for a registration: names and the argon2id password hash).
CREATE TABLE email_tokens (
  token_hash TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register_partner', 'register_user', 'invite', 'password_reset')),
  email TEXT NOT NULL COLLATE NOCASE,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  consumed_at TEXT
) STRICT;
CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);

-- SMS codes: phone verification and login second factor. Stored hashed, short-lived, few attempts.
CREATE TABLE sms_codes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('phone_verify', 'login')),
  phone_number TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  consumed_at TEXT
) STRICT;
CREATE INDEX sms_codes_user ON sms_codes (user_id, purpose);

-- Sliding windows (API keys) weigh the previous window's count by how much of it still overlaps.
ALTER TABLE rate_limits ADD COLUMN prev_count INTEGER NOT NULL DEFAULT 0;

-- Built-in roles (immutable, fixed ids). Partners also get their own `Partner Admin` role when created.
INSERT INTO roles (id, scope, name, description, is_system, created_at, updated_at) VALUES
  ('00000000-0000-4000-8000-000000000002', 'partner', 'Partner Technician',
   'Works on devices, alerts and approvals of the organizations granted to them', 1,
   strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ')),
  ('00000000-0000-4000-8000-000000000003', 'organization', 'Organization Administrator',
   'Full administration of one organization', 1,
   strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ')),
  ('00000000-0000-4000-8000-000000000004', 'organization', 'Organization Technician',
   'Works on the devices, alerts and approvals of one organization', 1,
   strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ')),
  ('00000000-0000-4000-8000-000000000005', 'organization', 'Organization Read Only',
   'Sees everything in one organization and changes nothing', 1,
   strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ'));

INSERT INTO role_permissions (role_id, resource, action) VALUES
  ('00000000-0000-4000-8000-000000000002', 'devices', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'devices', 'execute'),
  ('00000000-0000-4000-8000-000000000002', 'scripts', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'scripts', 'execute'),
  ('00000000-0000-4000-8000-000000000002', 'alerts', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'alerts', 'update'),
  ('00000000-0000-4000-8000-000000000002', 'remote', 'execute'),
  ('00000000-0000-4000-8000-000000000002', 'organizations', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'sites', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'reports', 'view'),
  ('00000000-0000-4000-8000-000000000002', 'audit', 'read'),
  ('00000000-0000-4000-8000-000000000002', 'pam', 'approve'),
  ('00000000-0000-4000-8000-000000000003', '*', '*'),
  ('00000000-0000-4000-8000-000000000004', 'devices', 'view'),
  ('00000000-0000-4000-8000-000000000004', 'devices', 'update'),
  ('00000000-0000-4000-8000-000000000004', 'devices', 'execute'),
  ('00000000-0000-4000-8000-000000000004', 'scripts', 'view'),
  ('00000000-0000-4000-8000-000000000004', 'scripts', 'execute'),
  ('00000000-0000-4000-8000-000000000004', 'alerts', 'view'),
  ('00000000-0000-4000-8000-000000000004', 'alerts', 'update'),
  ('00000000-0000-4000-8000-000000000004', 'remote', 'execute'),
  ('00000000-0000-4000-8000-000000000004', 'organizations', 'view'),
  ('00000000-0000-4000-8000-000000000004', 'sites', 'view'),
  ('00000000-0000-4000-8000-000000000004', 'pam', 'approve'),
  ('00000000-0000-4000-8000-000000000005', 'devices', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'scripts', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'alerts', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'automations', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'reports', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'users', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'settings', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'organizations', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'sites', 'view'),
  ('00000000-0000-4000-8000-000000000005', 'audit', 'read');
