-- Addresses from which an account has proved a secret (server/http/guard.ts). A known-good address skips the
-- per-address budget and the account-wide delay, so failures elsewhere never keep the account's owner out.
-- Failure counters themselves live in rate_limits.
CREATE TABLE secret_known_addresses (
  kind TEXT NOT NULL,
  account TEXT NOT NULL,
  -- An IPv4 address or an IPv6 /64 (http/ip.ts addressBlock).
  address TEXT NOT NULL,
  last_success_at INTEGER NOT NULL,
  PRIMARY KEY (kind, account, address)
) STRICT, WITHOUT ROWID;
CREATE INDEX secret_known_addresses_age ON secret_known_addresses (last_success_at);
