-- Estate import and partner provisioning (spec 3 "Import row", "Contact import row", "Partner provisioning
-- interface"): external links that make a re-import find what an earlier import created, contacts of an
-- organization (optionally of one of its sites), and the keys of partner service principals.

-- An organization's identity in the tool it came from. Unique per partner and system, so the same source id can
-- never name two organizations of one partner; another partner may use the same id for its own customer.
CREATE TABLE organization_external_links (
  partner_id TEXT NOT NULL REFERENCES partners(id),
  org_id TEXT NOT NULL REFERENCES organizations(id),
  external_system TEXT NOT NULL CHECK (length(external_system) BETWEEN 1 AND 100),
  external_id TEXT NOT NULL CHECK (length(external_id) BETWEEN 1 AND 255),
  created_at TEXT NOT NULL,
  PRIMARY KEY (partner_id, external_system, external_id)
) STRICT;
CREATE INDEX organization_external_links_org ON organization_external_links (org_id);

CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  -- A site-level contact; a deleted site leaves an organization-level contact behind rather than losing it.
  site_id TEXT REFERENCES sites(id) ON DELETE SET NULL,
  name TEXT CHECK (name IS NULL OR length(name) <= 255),
  email TEXT CHECK (email IS NULL OR length(email) <= 320),
  phone TEXT CHECK (phone IS NULL OR length(phone) <= 50),
  mobile TEXT CHECK (mobile IS NULL OR length(mobile) <= 50),
  title TEXT CHECK (title IS NULL OR length(title) <= 255),
  -- JSON array of the spec's role values.
  roles TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(roles)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- The identifier rule: a contact is somebody one can name or reach.
  CHECK (coalesce(name, email, phone, mobile) IS NOT NULL)
) STRICT;
CREATE INDEX contacts_org_name ON contacts (org_id, name COLLATE NOCASE, id);
CREATE INDEX contacts_org_email ON contacts (org_id, email COLLATE NOCASE) WHERE email IS NOT NULL;

-- A contact's id in the tool it came from, unique within the organization and system.
CREATE TABLE contact_external_links (
  org_id TEXT NOT NULL REFERENCES organizations(id),
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  external_system TEXT NOT NULL CHECK (length(external_system) BETWEEN 1 AND 100),
  external_id TEXT NOT NULL CHECK (length(external_id) BETWEEN 1 AND 255),
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, external_system, external_id)
) STRICT;
CREATE INDEX contact_external_links_contact ON contact_external_links (contact_id);

-- Partner provisioning keys (`psk_`): like organization API keys, the key is shown once and stored as its
-- SHA-256 hash; they belong to a partner rather than an organization and carry provisioning scopes only.
CREATE TABLE partner_keys (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  scopes TEXT NOT NULL CHECK (json_valid(scopes)),
  -- Writes per hour the key asks for; the partner interface caps the bucket at 120 whatever this says.
  rate_limit INTEGER NOT NULL DEFAULT 120 CHECK (rate_limit BETWEEN 1 AND 100000),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  expires_at TEXT,
  last_used_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  revoked_at TEXT,
  CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
) STRICT;
CREATE INDEX partner_keys_partner ON partner_keys (partner_id, created_at);
