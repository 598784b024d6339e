-- Crossing enrollments of one install (issue 18): during a storm an agent may give up on an enrollment, try again,
-- and the server may answer the two in either order. The answer the agent kept is the one it will use; the server
-- cannot tell which. So a credential that has never been used is not cut off when the same install enrolls again:
-- it waits beside the new one (`agent_token_prev_hash`) until either is used, and the first one used is kept, the
-- other dies (server/modules/agents/auth.ts). A credential already used is cut off at once, as before.
-- `agent_token_fresh` = 1 while the current credential has not been used; existing devices count as used.
ALTER TABLE devices ADD COLUMN agent_token_prev_hash TEXT;
ALTER TABLE devices ADD COLUMN agent_token_fresh INTEGER NOT NULL DEFAULT 0 CHECK (agent_token_fresh IN (0, 1));
