-- Saved filters at 50,000 devices (issue 18 item 3). Three costs measured on the preview, and what removes them:
--
-- 1. Every filter read the wide devices row (about 640 bytes) of every device: a full scan of 32 MB. The common
--    fields get a narrow covering index, ordered the way the preview pages (hostname case-insensitively, then id),
--    so a filter on them scans 5 MB and its first page is the first matches met. Its columns are the ones the
--    scope and liveness tests read (status, org_id) and the fields technicians filter on most (os type, last user,
--    cpu, last seen); the others still work, from the table. Heartbeats rewrite the entry (as they already rewrite
--    devices_last_seen): a few microseconds against the request around them.
--
-- 2. Tags and software names compare case-insensitively (NOCASE, which folds ASCII letters like LIKE does), but
--    their indexes were case-sensitive, and `contains` ran LIKE '%x%' over every one of 131,000 software rows.
--    Each now has a dictionary of its distinct names (unique under NOCASE: 'Slack' and 'slack' are one name), so
--    `contains` reads the few hundred names instead of every row, and a link table from name to device.
--
-- 3. Testing "is this device in that set" on the text UUID of 50,000 devices cost about 2 us per device. The link
--    tables name devices by `filter_key`, the devices rowid given a name (INTEGER PRIMARY KEY), so the test is an
--    integer probe that every index already carries. Named, because VACUUM may renumber the rowids of a table
--    without one; and free, where a separate key column costs a second write of the row on every insert.
--
-- Triggers keep the dictionaries and links in step with device_tags and device_software on every write, whatever
-- the path (the agent's inventory report, tag edits, imports, fixtures writing SQL directly, cascaded deletes), in
-- the same transaction as the write: nothing can be half-written. A link row counts how many spellings of the name
-- the device has (`n`), so removing 'slack' from a device that also has 'Slack' keeps the link.

-- The devices table is rebuilt with its rowid named `filter_key` (nothing else changes: columns, checks, indexes
-- and the foreign keys of other tables onto devices.id, now UNIQUE rather than PRIMARY KEY, stay as they were).
-- Migrations run with foreign keys off, so dropping the old table cascades into nothing.
CREATE TABLE devices_new (
  -- The rowid, named: stable under VACUUM (which may renumber the rowids of a table without one).
  filter_key INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
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
INSERT INTO devices_new SELECT rowid, * FROM devices;
DROP TABLE devices;
ALTER TABLE devices_new RENAME TO devices;
CREATE INDEX devices_org ON devices (org_id, status);
CREATE INDEX devices_site ON devices (site_id);
CREATE INDEX devices_hostname ON devices (hostname COLLATE NOCASE);
CREATE INDEX devices_last_seen ON devices (last_seen_at);

-- The covering index; like every index it carries the rowid, filter_key, without naming it.
CREATE INDEX devices_filter ON devices (hostname COLLATE NOCASE, id, status, org_id, os_type, last_user,
  cpu_percent, last_seen_at);

-- ---- tags ----------------------------------------------------------------------------------------------------

CREATE TABLE tag_names (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE
) STRICT;

CREATE TABLE device_tag_links (
  name_id INTEGER NOT NULL REFERENCES tag_names(id),
  device_key INTEGER NOT NULL,
  n INTEGER NOT NULL CHECK (n > 0),
  PRIMARY KEY (name_id, device_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX device_tag_links_device ON device_tag_links (device_key);

INSERT OR IGNORE INTO tag_names (name) SELECT tag FROM device_tags ORDER BY tag;
INSERT INTO device_tag_links (name_id, device_key, n)
  SELECT n.id, d.filter_key, count(*) FROM device_tags t
    JOIN tag_names n ON n.name = t.tag
    JOIN devices d ON d.id = t.device_id
  GROUP BY n.id, d.filter_key;

CREATE TRIGGER device_tags_link_insert AFTER INSERT ON device_tags
BEGIN
  INSERT OR IGNORE INTO tag_names (name) VALUES (new.tag);
  INSERT INTO device_tag_links (name_id, device_key, n)
    VALUES ((SELECT id FROM tag_names WHERE name = new.tag),
            (SELECT filter_key FROM devices WHERE id = new.device_id), 1)
    ON CONFLICT (name_id, device_key) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER device_tags_link_delete AFTER DELETE ON device_tags
BEGIN
  DELETE FROM device_tag_links
    WHERE name_id = (SELECT id FROM tag_names WHERE name = old.tag)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id) AND n = 1;
  UPDATE device_tag_links SET n = n - 1
    WHERE name_id = (SELECT id FROM tag_names WHERE name = old.tag)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id);
END;

-- Nothing renames a tag in place today; should anything, the link follows.
CREATE TRIGGER device_tags_link_update AFTER UPDATE OF device_id, tag ON device_tags
BEGIN
  DELETE FROM device_tag_links
    WHERE name_id = (SELECT id FROM tag_names WHERE name = old.tag)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id) AND n = 1;
  UPDATE device_tag_links SET n = n - 1
    WHERE name_id = (SELECT id FROM tag_names WHERE name = old.tag)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id);
  INSERT OR IGNORE INTO tag_names (name) VALUES (new.tag);
  INSERT INTO device_tag_links (name_id, device_key, n)
    VALUES ((SELECT id FROM tag_names WHERE name = new.tag),
            (SELECT filter_key FROM devices WHERE id = new.device_id), 1)
    ON CONFLICT (name_id, device_key) DO UPDATE SET n = n + 1;
END;

-- ---- software ------------------------------------------------------------------------------------------------

CREATE TABLE software_names (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE
) STRICT;

CREATE TABLE device_software_links (
  name_id INTEGER NOT NULL REFERENCES software_names(id),
  device_key INTEGER NOT NULL,
  n INTEGER NOT NULL CHECK (n > 0),
  PRIMARY KEY (name_id, device_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX device_software_links_device ON device_software_links (device_key);

INSERT OR IGNORE INTO software_names (name) SELECT name FROM device_software ORDER BY name;
INSERT INTO device_software_links (name_id, device_key, n)
  SELECT n.id, d.filter_key, count(*) FROM device_software s
    JOIN software_names n ON n.name = s.name
    JOIN devices d ON d.id = s.device_id
  GROUP BY n.id, d.filter_key;

CREATE TRIGGER device_software_link_insert AFTER INSERT ON device_software
BEGIN
  INSERT OR IGNORE INTO software_names (name) VALUES (new.name);
  INSERT INTO device_software_links (name_id, device_key, n)
    VALUES ((SELECT id FROM software_names WHERE name = new.name),
            (SELECT filter_key FROM devices WHERE id = new.device_id), 1)
    ON CONFLICT (name_id, device_key) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER device_software_link_delete AFTER DELETE ON device_software
BEGIN
  DELETE FROM device_software_links
    WHERE name_id = (SELECT id FROM software_names WHERE name = old.name)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id) AND n = 1;
  UPDATE device_software_links SET n = n - 1
    WHERE name_id = (SELECT id FROM software_names WHERE name = old.name)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id);
END;

-- Nothing renames a software in place today; should anything, the link follows.
CREATE TRIGGER device_software_link_update AFTER UPDATE OF device_id, name ON device_software
BEGIN
  DELETE FROM device_software_links
    WHERE name_id = (SELECT id FROM software_names WHERE name = old.name)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id) AND n = 1;
  UPDATE device_software_links SET n = n - 1
    WHERE name_id = (SELECT id FROM software_names WHERE name = old.name)
      AND device_key = (SELECT filter_key FROM devices WHERE id = old.device_id);
  INSERT OR IGNORE INTO software_names (name) VALUES (new.name);
  INSERT INTO device_software_links (name_id, device_key, n)
    VALUES ((SELECT id FROM software_names WHERE name = new.name),
            (SELECT filter_key FROM devices WHERE id = new.device_id), 1)
    ON CONFLICT (name_id, device_key) DO UPDATE SET n = n + 1;
END;

-- A device deleted outright (its tags and software go by cascade, when its row is already gone and the triggers
-- above can no longer find its key) takes its links with it.
CREATE TRIGGER devices_filter_links_delete AFTER DELETE ON devices
BEGIN
  DELETE FROM device_tag_links WHERE device_key = old.filter_key;
  DELETE FROM device_software_links WHERE device_key = old.filter_key;
END;

-- Nothing changes a key once given; should anything, the links follow it.
CREATE TRIGGER devices_filter_key_change AFTER UPDATE OF filter_key ON devices
BEGIN
  UPDATE device_tag_links SET device_key = new.filter_key WHERE device_key = old.filter_key;
  UPDATE device_software_links SET device_key = new.filter_key WHERE device_key = old.filter_key;
END;
