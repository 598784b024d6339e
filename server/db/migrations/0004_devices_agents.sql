-- Devices and their agents (DESIGN §3; spec documents 2 and 3): enrolled devices with their inventory, agent
-- credentials, commands, diagnostic and event logs, device groups and tags, custom fields, software inventory,
-- agent versions and saved filters.
--
-- Inventory lives in plain columns rather than JSON so that saved filters compile to indexed SQL.

CREATE TABLE devices (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  site_id TEXT REFERENCES sites(id) ON DELETE SET NULL,
  -- The agent's identity on the wire (DESIGN §3 paths) and its bearer credential, stored as SHA-256 only.
  agent_id TEXT NOT NULL UNIQUE,
  agent_token_hash TEXT NOT NULL UNIQUE,
  enrollment_key_id TEXT,
  hostname TEXT NOT NULL CHECK (length(hostname) BETWEEN 1 AND 255),
  display_name TEXT CHECK (display_name IS NULL OR length(display_name) <= 255),
  os_type TEXT NOT NULL CHECK (os_type IN ('windows', 'macos', 'linux')),
  os_version TEXT NOT NULL CHECK (length(os_version) <= 255),
  os_build TEXT CHECK (os_build IS NULL OR length(os_build) <= 255),
  architecture TEXT NOT NULL CHECK (architecture IN ('x64', 'x86', 'arm64')),
  agent_version TEXT NOT NULL CHECK (length(agent_version) <= 50),
  device_role TEXT NOT NULL DEFAULT 'workstation' CHECK (device_role IN ('workstation', 'server', 'printer',
    'router', 'switch', 'firewall', 'access_point', 'phone', 'iot', 'camera', 'nas', 'unknown')),
  is_headless INTEGER NOT NULL DEFAULT 0 CHECK (is_headless IN (0, 1)),
  -- online | offline: connectivity; decommissioned: removed (kept for history, excluded from caps and lists).
  status TEXT NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'offline', 'maintenance', 'quarantined',
    'decommissioned')),
  -- The agent's own verdict in its last heartbeat.
  health TEXT NOT NULL DEFAULT 'ok' CHECK (health IN ('ok', 'warning', 'error')),
  watchdog_status TEXT CHECK (watchdog_status IS NULL OR watchdog_status IN ('connected', 'failover', 'offline')),
  last_user TEXT,
  uptime_seconds INTEGER,
  reboot_required INTEGER CHECK (reboot_required IS NULL OR reboot_required IN (0, 1)),
  patches_pending INTEGER NOT NULL DEFAULT 0 CHECK (patches_pending IN (0, 1)),
  alerts_critical INTEGER NOT NULL DEFAULT 0 CHECK (alerts_critical IN (0, 1)),
  hw_manufacturer TEXT,
  hw_model TEXT,
  hw_serial_number TEXT,
  hw_cpu_model TEXT,
  hw_gpu_model TEXT,
  hw_cpu_cores INTEGER,
  hw_ram_total_mb INTEGER,
  hw_disk_total_gb INTEGER,
  net_ip_address TEXT,
  net_public_ip TEXT,
  net_mac_address TEXT,
  last_seen_ip TEXT,
  cpu_percent REAL,
  ram_percent REAL,
  disk_percent REAL,
  -- Management posture (spec 3): [{product, status}] as last reported, and when.
  management_posture TEXT CHECK (management_posture IS NULL OR json_valid(management_posture)),
  posture_reported_at TEXT,
  -- Custom field values by field key (types from custom_fields).
  custom_fields TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(custom_fields)),
  -- Set by `dev_update`: the agent stops auto-updating until an operator turns it back on.
  auto_update INTEGER NOT NULL DEFAULT 1 CHECK (auto_update IN (0, 1)),
  enrolled_at TEXT NOT NULL,
  last_seen_at TEXT,
  quarantined_at TEXT,
  decommissioned_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX devices_org ON devices (org_id, status);
CREATE INDEX devices_site ON devices (site_id);
CREATE INDEX devices_hostname ON devices (hostname COLLATE NOCASE);
CREATE INDEX devices_last_seen ON devices (last_seen_at);

CREATE TABLE device_tags (
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 100),
  PRIMARY KEY (device_id, tag)
) STRICT, WITHOUT ROWID;
CREATE INDEX device_tags_tag ON device_tags (tag);

CREATE TABLE device_groups (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  site_id TEXT REFERENCES sites(id) ON DELETE SET NULL,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX device_groups_org ON device_groups (org_id);

CREATE TABLE device_group_members (
  group_id TEXT NOT NULL REFERENCES device_groups(id) ON DELETE CASCADE,
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (group_id, device_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX device_group_members_device ON device_group_members (device_id);

-- Installed software as last reported by the agent (replaced as a whole on each report).
CREATE TABLE device_software (
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  version TEXT CHECK (version IS NULL OR length(version) <= 100),
  publisher TEXT CHECK (publisher IS NULL OR length(publisher) <= 255),
  PRIMARY KEY (device_id, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX device_software_name ON device_software (name COLLATE NOCASE);

-- Custom field definitions: `custom.<fieldKey>` in filters takes its type from here (string when undefined).
CREATE TABLE custom_fields (
  id TEXT PRIMARY KEY,
  partner_id TEXT REFERENCES partners(id),
  org_id TEXT REFERENCES organizations(id),
  field_key TEXT NOT NULL CHECK (length(field_key) BETWEEN 1 AND 100),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  type TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean', 'datetime')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX custom_fields_key ON custom_fields (coalesce(org_id, partner_id, ''), field_key);

-- Commands for agents: claimed by the next heartbeat or pushed over the agent socket, answered with a result.
CREATE TABLE device_commands (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  type TEXT NOT NULL CHECK (length(type) <= 50),
  payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'completed', 'failed', 'timeout',
    'cancelled')),
  created_by TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT,
  completed_at TEXT,
  result TEXT CHECK (result IS NULL OR json_valid(result)),
  error TEXT
) STRICT;
CREATE INDEX device_commands_pending ON device_commands (device_id, status, created_at);

-- Agent diagnostic logs (spec 2): the agent's own log lines.
CREATE TABLE diagnostic_logs (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('debug', 'info', 'warn', 'error')),
  component TEXT NOT NULL CHECK (length(component) <= 100),
  message TEXT NOT NULL,
  fields TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(fields)),
  agent_version TEXT CHECK (agent_version IS NULL OR length(agent_version) <= 50),
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX diagnostic_logs_device ON diagnostic_logs (device_id, timestamp);

-- Device event logs (spec 2): operating-system events, unique per (device, source, eventId). An event without
-- an eventId has nothing to be a duplicate of, so it is always kept (NULLs are distinct in a UNIQUE index).
CREATE TABLE device_event_logs (
  id TEXT PRIMARY KEY,
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'error', 'critical')),
  category TEXT NOT NULL CHECK (category IN ('security', 'hardware', 'application', 'system')),
  source TEXT NOT NULL CHECK (length(source) <= 255),
  event_id TEXT CHECK (event_id IS NULL OR length(event_id) <= 100),
  message TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
  created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX device_event_logs_unique ON device_event_logs (device_id, source, event_id);
CREATE INDEX device_event_logs_device ON device_event_logs (device_id, timestamp);

-- Agent versions (spec 3): one row per (version, platform, architecture). Platform and architecture use the
-- download vocabulary (`windows|darwin|linux`, `amd64|arm64`).
CREATE TABLE agent_versions (
  id TEXT PRIMARY KEY,
  version TEXT NOT NULL CHECK (length(version) <= 50),
  platform TEXT NOT NULL CHECK (platform IN ('windows', 'darwin', 'linux')),
  architecture TEXT NOT NULL CHECK (architecture IN ('amd64', 'arm64')),
  download_url TEXT,
  file_path TEXT,
  checksum TEXT NOT NULL CHECK (length(checksum) = 64),
  size_bytes INTEGER,
  source TEXT NOT NULL CHECK (source IN ('scan', 'manual', 'github')),
  release_notes TEXT,
  is_latest INTEGER NOT NULL DEFAULT 0 CHECK (is_latest IN (0, 1)),
  created_at TEXT NOT NULL,
  UNIQUE (version, platform, architecture)
) STRICT;

-- Saved filters (spec 2): organization-scoped; conditions are the JSON condition group.
CREATE TABLE saved_filters (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description TEXT CHECK (description IS NULL OR length(description) <= 1000),
  conditions TEXT NOT NULL CHECK (json_valid(conditions)),
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX saved_filters_org ON saved_filters (org_id, created_at);
