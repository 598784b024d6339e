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
--    tables name devices by `filter_key`, a small integer on the devices row (and in the covering index), so the
--    test is an integer probe. It is a column rather than the rowid because VACUUM may renumber rowids of a table
--    without an INTEGER PRIMARY KEY; a key, once given, never changes, and a new device takes the largest plus one.
--
-- Triggers keep the dictionaries and links in step with device_tags and device_software on every write, whatever
-- the path (the agent's inventory report, tag edits, imports, fixtures writing SQL directly, cascaded deletes), in
-- the same transaction as the write: nothing can be half-written. A link row counts how many spellings of the name
-- the device has (`n`), so removing 'slack' from a device that also has 'Slack' keeps the link.

ALTER TABLE devices ADD COLUMN filter_key INTEGER;
UPDATE devices SET filter_key = rowid;
CREATE UNIQUE INDEX devices_filter_key ON devices (filter_key);

CREATE TRIGGER devices_filter_key_assign AFTER INSERT ON devices WHEN new.filter_key IS NULL
BEGIN
  UPDATE devices SET filter_key = (SELECT coalesce(max(filter_key), 0) + 1 FROM devices) WHERE rowid = new.rowid;
END;

CREATE INDEX devices_filter ON devices (hostname COLLATE NOCASE, id, status, org_id, filter_key, os_type,
  last_user, cpu_percent, last_seen_at);

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
