-- Staged rollout of an agent version (issue 16): the share of eligible devices a heartbeat offers the version to,
-- chosen stably per device (server/modules/agent-versions/rollout.ts). One row per version, across its platforms;
-- a version without a row is offered to every eligible device (100 %), as before rollouts existed; 0 pauses it.
CREATE TABLE agent_version_rollouts (
  version TEXT PRIMARY KEY CHECK (length(version) <= 50),
  percent INTEGER NOT NULL CHECK (percent BETWEEN 0 AND 100),
  updated_at TEXT NOT NULL,
  updated_by TEXT
) STRICT;
