-- The whole audit surface (issue 13 item 2): who acted in which role and session, substring search over a million
-- entries, retention per organization with anchors that keep each chain verifiable, and the last verification of
-- each chain.

-- The actor's role name when the entry was written, and the console session of the request. Both join the checksum
-- only when set (audit/chain.ts), so entries written before this migration keep their checksums.
ALTER TABLE audit_logs ADD COLUMN actor_role TEXT CHECK (actor_role IS NULL OR length(actor_role) <= 255);
ALTER TABLE audit_logs ADD COLUMN session_id TEXT;

-- Platform-wide time ranges (reports and stats of a system administrator) and retention cuts read by time.
CREATE INDEX audit_logs_time ON audit_logs (timestamp);

-- Case-insensitive substring search (`q`) across action, actor email, resource type and name, and details: a
-- trigram index, external content (the text stays only in audit_logs), kept in step by the triggers below, so
-- every write path (the writer, retention, anything else) keeps it right. Queries of 1-2 characters use LIKE.
CREATE VIRTUAL TABLE audit_logs_fts USING fts5(
  action, actor_email, resource_type, resource_name, details,
  content = 'audit_logs', content_rowid = 'seq', tokenize = 'trigram'
);
INSERT INTO audit_logs_fts (audit_logs_fts) VALUES ('rebuild');

CREATE TRIGGER audit_logs_fts_insert AFTER INSERT ON audit_logs BEGIN
  INSERT INTO audit_logs_fts (rowid, action, actor_email, resource_type, resource_name, details)
  VALUES (new.seq, new.action, new.actor_email, new.resource_type, new.resource_name, new.details);
END;
CREATE TRIGGER audit_logs_fts_delete AFTER DELETE ON audit_logs BEGIN
  INSERT INTO audit_logs_fts (audit_logs_fts, rowid, action, actor_email, resource_type, resource_name, details)
  VALUES ('delete', old.seq, old.action, old.actor_email, old.resource_type, old.resource_name, old.details);
END;
CREATE TRIGGER audit_logs_fts_update AFTER UPDATE OF action, actor_email, resource_type, resource_name, details
  ON audit_logs BEGIN
  INSERT INTO audit_logs_fts (audit_logs_fts, rowid, action, actor_email, resource_type, resource_name, details)
  VALUES ('delete', old.seq, old.action, old.actor_email, old.resource_type, old.resource_name, old.details);
  INSERT INTO audit_logs_fts (rowid, action, actor_email, resource_type, resource_name, details)
  VALUES (new.seq, new.action, new.actor_email, new.resource_type, new.resource_name, new.details);
END;

-- Retention policy per organization (spec 2). No row: the defaults (365 days, no archive). Archiving to object
-- storage is not offered, so the column can only hold false.
CREATE TABLE audit_retention (
  org_id TEXT PRIMARY KEY,
  retention_days INTEGER NOT NULL DEFAULT 365 CHECK (retention_days BETWEEN 30 AND 3650),
  archive_to_s3 INTEGER NOT NULL DEFAULT 0 CHECK (archive_to_s3 = 0),
  last_cleanup_at TEXT,
  last_cleanup_removed INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT,
  updated_by TEXT
) STRICT, WITHOUT ROWID;

-- Where a chain now starts after retention removed its oldest rows: the last removed row's seq and checksum (the
-- first kept row links to it), when, and how many rows all cuts removed (verification expects the head's count
-- minus these). Written in the same transaction as each batch it deletes.
CREATE TABLE audit_chain_anchors (
  chain TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  cut_at TEXT NOT NULL,
  rows_removed INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The last verification of each chain, so the console shows chain status without verifying on every visit.
CREATE TABLE audit_chain_status (
  chain TEXT PRIMARY KEY,
  verified_at TEXT NOT NULL,
  valid INTEGER NOT NULL CHECK (valid IN (0, 1)),
  checked INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  problems TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(problems))
) STRICT, WITHOUT ROWID;
