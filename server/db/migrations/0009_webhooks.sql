-- Webhooks (spec 2 "Webhook", "Webhook delivery"; DESIGN §6). The deliveries table is the dispatch queue: a row is
-- written in the same transaction as the change it announces, and the dispatch job works rows whose
-- `next_attempt_at` is due. Claiming an attempt moves `next_attempt_at` past the attempt's timeout (a lease) and
-- marks it in flight, so an attempt cut short by a crash is due again after a restart; nothing in memory is needed
-- to resume.

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  url TEXT NOT NULL CHECK (url LIKE 'https://%'),
  -- AES-256-GCM sealed (server/crypto.ts SecretBox); never returned by the API.
  secret_sealed TEXT,
  -- JSON array of subscribed event types.
  events TEXT NOT NULL CHECK (json_valid(events)),
  -- JSON array of {key, value}, sent after the standard headers.
  headers TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(headers)),
  -- The API vocabulary is stored as is (the spec leaves open which vocabulary is authoritative).
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'failed')),
  retry_policy TEXT CHECK (retry_policy IS NULL OR json_valid(retry_policy)),
  success_count INTEGER NOT NULL DEFAULT 0,
  failure_count INTEGER NOT NULL DEFAULT 0,
  last_delivery_at TEXT,
  last_success_at TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX webhooks_org ON webhooks (org_id, status);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'retrying')),
  event TEXT NOT NULL,
  event_id TEXT NOT NULL,
  -- The exact JSON body sent on every attempt (signed as is), so a retry is byte for byte the same request.
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  response_status INTEGER,
  response_body TEXT CHECK (response_body IS NULL OR length(response_body) <= 1000),
  response_time_ms INTEGER,
  error_message TEXT,
  -- Attempts made so far.
  attempt INTEGER NOT NULL DEFAULT 0,
  -- Unix milliseconds when the row is next due (pending and retrying only; also the lease of a claimed attempt).
  next_attempt_at INTEGER,
  -- 1 while an attempt is claimed and unrecorded. Only one process works a data directory (backup/lock.ts), so at
  -- start every such attempt belonged to a process that is gone: it is made due again at once.
  in_flight INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1)),
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  CHECK ((status IN ('pending', 'retrying')) = (next_attempt_at IS NOT NULL))
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);
