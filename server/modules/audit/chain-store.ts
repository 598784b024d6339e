import { statement, type Db } from '../../db/connection';

// The SQL of the audit hash chains (chain.ts computes and verifies, writer.ts appends): entries in audit_logs and
// one head row per chain in audit_chain_heads.

/** Which chain an entry belongs to: its organization, else its partner, else the platform. */
export interface ChainRef {
  orgId: string | null;
  partnerId: string | null;
}

/** The columns a checksum covers, in a fixed order. */
export interface ChainedRow {
  id: string;
  org_id: string | null;
  /** Set only on partner-chain entries (org_id null). */
  partner_id: string | null;
  timestamp: string;
  actor_type: string;
  actor_id: string;
  actor_email: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  details: string;
  ip_address: string | null;
  user_agent: string | null;
  result: string;
  error_message: string | null;
  /** The actor's role name when written (null for non-users and entries written before it was recorded). */
  actor_role: string | null;
  /** The console session of a user's request. */
  session_id: string | null;
  prev_checksum: string;
}

export interface ChainHead {
  last_seq: number;
  last_checksum: string;
  entry_count: number;
}

/** The (organization, partner) pairs that hold entries. */
export function entryOwners(db: Db): ChainRef[] {
  return statement(
    db,
    'SELECT DISTINCT org_id AS orgId, partner_id AS partnerId FROM audit_logs',
  ).all() as ChainRef[];
}

/** The entries of one chain in the order they were written, read lazily (a chain may be long). */
export function chainEntries(
  db: Db,
  ref: ChainRef,
): IterableIterator<ChainedRow & { seq: number; checksum: string }> {
  const rows =
    ref.orgId !== null
      ? statement(db, 'SELECT * FROM audit_logs WHERE org_id = ? ORDER BY seq').iterate(ref.orgId)
      : ref.partnerId !== null
        ? statement(
            db,
            'SELECT * FROM audit_logs WHERE org_id IS NULL AND partner_id = ? ORDER BY seq',
          ).iterate(ref.partnerId)
        : statement(
            db,
            'SELECT * FROM audit_logs WHERE org_id IS NULL AND partner_id IS NULL ORDER BY seq',
          ).iterate();
  return rows as IterableIterator<ChainedRow & { seq: number; checksum: string }>;
}

export function chainHead(db: Db, chain: string): ChainHead | undefined {
  return statement(
    db,
    'SELECT last_seq, last_checksum, entry_count FROM audit_chain_heads WHERE chain = ?',
  ).get(chain) as ChainHead | undefined;
}

/** Appends one entry and moves its chain's head to it. */
export function appendEntry(db: Db, chain: string, row: ChainedRow & { checksum: string }): void {
  const { lastInsertRowid } = statement(
    db,
    `INSERT INTO audit_logs (id, org_id, partner_id, timestamp, actor_type, actor_id, actor_email, action,
       resource_type, resource_id, resource_name, details, ip_address, user_agent, result, error_message,
       actor_role, session_id, prev_checksum, checksum)
     VALUES (@id, @org_id, @partner_id, @timestamp, @actor_type, @actor_id, @actor_email, @action,
       @resource_type, @resource_id, @resource_name, @details, @ip_address, @user_agent, @result, @error_message,
       @actor_role, @session_id, @prev_checksum, @checksum)`,
  ).run(row);
  statement(
    db,
    `INSERT INTO audit_chain_heads (chain, last_seq, last_checksum, entry_count) VALUES (?, ?, ?, 1)
     ON CONFLICT (chain) DO UPDATE SET last_seq = excluded.last_seq, last_checksum = excluded.last_checksum,
       entry_count = entry_count + 1`,
  ).run(chain, lastInsertRowid, row.checksum);
}

export interface AnchorRow {
  seq: number;
  checksum: string;
  cut_at: string;
  rows_removed: number;
}

/**
 * Where a chain starts after retention cuts (undefined: at genesis). A backup taken before anchors existed is
 * verified as it is, without the table: such a chain has never been cut.
 */
export function chainAnchor(db: Db, chain: string): AnchorRow | undefined {
  const table = statement(
    db,
    "SELECT 1 AS present FROM sqlite_schema WHERE type = 'table' AND name = 'audit_chain_anchors'",
  ).get();
  if (!table) return undefined;
  return statement(
    db,
    'SELECT seq, checksum, cut_at, rows_removed FROM audit_chain_anchors WHERE chain = ?',
  ).get(chain) as AnchorRow | undefined;
}

/** Moves a chain's anchor to the last row of a cut (same transaction as the delete), adding the rows removed. */
export function advanceAnchor(
  db: Db,
  chain: string,
  anchor: { seq: number; checksum: string; cutAt: string; removed: number },
): void {
  statement(
    db,
    `INSERT INTO audit_chain_anchors (chain, seq, checksum, cut_at, rows_removed) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, checksum = excluded.checksum, cut_at = excluded.cut_at,
       rows_removed = rows_removed + excluded.rows_removed`,
  ).run(chain, anchor.seq, anchor.checksum, anchor.cutAt, anchor.removed);
}

export interface ChainStatusRow {
  chain: string;
  verified_at: string;
  valid: number;
  checked: number;
  duration_ms: number;
  problems: string;
}

export function saveChainStatus(db: Db, row: ChainStatusRow): void {
  statement(
    db,
    `INSERT INTO audit_chain_status (chain, verified_at, valid, checked, duration_ms, problems)
     VALUES (@chain, @verified_at, @valid, @checked, @duration_ms, @problems)
     ON CONFLICT (chain) DO UPDATE SET verified_at = excluded.verified_at, valid = excluded.valid,
       checked = excluded.checked, duration_ms = excluded.duration_ms, problems = excluded.problems`,
  ).run(row);
}

export function chainStatus(db: Db, chain: string): ChainStatusRow | undefined {
  return statement(db, 'SELECT * FROM audit_chain_status WHERE chain = ?').get(chain) as
    ChainStatusRow | undefined;
}

export interface ChainOverviewRow {
  chain: string;
  entry_count: number;
  org_id: string | null;
  org_name: string | null;
  partner_id: string | null;
  partner_name: string | null;
}

/** The chains that hold entries, with their organization's or partner's name; `chains` null: every chain. */
export function chainOverview(db: Db, chains: readonly string[] | null): ChainOverviewRow[] {
  return statement(
    db,
    `SELECT h.chain, h.entry_count, o.id AS org_id, o.name AS org_name, p.id AS partner_id, p.name AS partner_name
     FROM audit_chain_heads h
     LEFT JOIN organizations o ON o.id = h.chain
     LEFT JOIN partners p ON h.chain = 'partner:' || p.id
     WHERE @chains IS NULL OR h.chain IN (SELECT value FROM json_each(@chains))
     ORDER BY (h.chain = 'platform') DESC, p.name IS NULL, p.name, o.name`,
  ).all({ chains: chains === null ? null : JSON.stringify(chains) }) as ChainOverviewRow[];
}
