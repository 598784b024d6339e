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
       prev_checksum, checksum)
     VALUES (@id, @org_id, @partner_id, @timestamp, @actor_type, @actor_id, @actor_email, @action,
       @resource_type, @resource_id, @resource_name, @details, @ip_address, @user_agent, @result, @error_message,
       @prev_checksum, @checksum)`,
  ).run(row);
  statement(
    db,
    `INSERT INTO audit_chain_heads (chain, last_seq, last_checksum, entry_count) VALUES (?, ?, ?, 1)
     ON CONFLICT (chain) DO UPDATE SET last_seq = excluded.last_seq, last_checksum = excluded.last_checksum,
       entry_count = entry_count + 1`,
  ).run(chain, lastInsertRowid, row.checksum);
}
