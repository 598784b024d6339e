-- Single sign-on (spec 1 "SSO provider", rules 10-16). A provider belongs to exactly one owner: an organization
-- (partner_id is then that organization's partner, so partner-wide queries need no join) or a partner.
-- `generation` counts the changes that must end logins in flight (status leaving active, issuer, client id or
-- secret, endpoints): a login remembers the generation it started under and the callback refuses another.

CREATE TABLE sso_providers (
  id TEXT PRIMARY KEY,
  owner_scope TEXT NOT NULL CHECK (owner_scope IN ('organization', 'partner')),
  org_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  partner_id TEXT NOT NULL REFERENCES partners(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  type TEXT NOT NULL CHECK (type IN ('oidc', 'saml')),
  preset TEXT,
  issuer TEXT,
  client_id TEXT,
  -- AES-256-GCM sealed (server/crypto.ts SecretBox); never returned by the API.
  client_secret_sealed TEXT,
  scopes TEXT NOT NULL,
  attribute_mapping TEXT NOT NULL CHECK (json_valid(attribute_mapping)),
  auto_provision INTEGER NOT NULL CHECK (auto_provision IN (0, 1)),
  default_role_id TEXT REFERENCES roles(id) ON DELETE SET NULL,
  -- The administrator who set default_role_id: provisioning re-checks that they may still grant it (rule 12).
  default_role_set_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  allowed_domains TEXT NOT NULL DEFAULT '',
  enforce_sso INTEGER NOT NULL DEFAULT 0 CHECK (enforce_sso IN (0, 1)),
  trusts_idp_mfa INTEGER NOT NULL DEFAULT 0 CHECK (trusts_idp_mfa IN (0, 1)),
  status TEXT NOT NULL DEFAULT 'inactive' CHECK (status IN ('inactive', 'testing', 'active')),
  authorization_url TEXT,
  token_url TEXT,
  userinfo_url TEXT,
  jwks_url TEXT,
  generation INTEGER NOT NULL DEFAULT 1,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((owner_scope = 'organization') = (org_id IS NOT NULL))
) STRICT;
CREATE INDEX sso_providers_org ON sso_providers (org_id, status, created_at);
CREATE INDEX sso_providers_partner ON sso_providers (partner_id, owner_scope, status, created_at);

-- One link per user and provider: the IdP's subject, refreshed on every SSO sign-in; tokens sealed.
CREATE TABLE sso_identities (
  id TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  idp_email TEXT NOT NULL,
  profile TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(profile)),
  access_token_sealed TEXT,
  refresh_token_sealed TEXT,
  token_expires_at TEXT,
  last_login_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (provider_id, external_id),
  UNIQUE (provider_id, user_id)
) STRICT;
CREATE INDEX sso_identities_user ON sso_identities (user_id);

-- A sign-in round trip (rule 10): looked up by the state's hash, valid 10 minutes, consumed once. The PKCE
-- verifier is sealed; the browser holds only an HMAC of the state in its cookie.
CREATE TABLE sso_login_sessions (
  state_hash TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
  generation INTEGER NOT NULL,
  nonce TEXT NOT NULL,
  code_verifier_sealed TEXT NOT NULL,
  redirect_path TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  consumed_at TEXT
) STRICT;
CREATE INDEX sso_login_sessions_expiry ON sso_login_sessions (expires_at);

-- The short-lived code the callback puts in the URL fragment; `POST /sso/exchange` turns it into a session once.
CREATE TABLE sso_exchange_codes (
  code_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider_id TEXT NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
  -- The IdP's MFA assertion counted (trustsIdpMfa and amr has mfa or phr).
  idp_mfa INTEGER NOT NULL CHECK (idp_mfa IN (0, 1)),
  redirect_path TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  consumed_at TEXT
) STRICT;
CREATE INDEX sso_exchange_codes_expiry ON sso_exchange_codes (expires_at);

-- Email domains an organization proved with a DNS TXT record (rules 12 and 14).
CREATE TABLE sso_domains (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL COLLATE NOCASE,
  token TEXT NOT NULL,
  verified_at TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, domain)
) STRICT;
CREATE INDEX sso_domains_domain ON sso_domains (domain, verified_at);
