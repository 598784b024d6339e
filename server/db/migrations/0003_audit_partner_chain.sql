-- Partner-level audit entries (partner settings, partner users and roles, partner sign-ins) belong to the partner,
-- not to the platform: each partner gets its own hash chain, readable by that partner's administrators. Entries
-- with an organization stay in the organization's chain; partner_id is set only when org_id is null.
ALTER TABLE audit_logs ADD COLUMN partner_id TEXT;
CREATE INDEX audit_logs_partner_seq ON audit_logs (partner_id, seq) WHERE org_id IS NULL;
