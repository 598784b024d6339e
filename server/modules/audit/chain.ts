import { sha256Hex } from '../../crypto';
import type { Db } from '../../db/connection';
import { chainEntries, chainHead, entryOwners, type ChainedRow, type ChainRef } from './chain-store';

export type { ChainedRow, ChainRef } from './chain-store';

// Per-organization hash chain (DESIGN §6). Each row's checksum covers its content and the previous row's
// checksum in the same chain; the chain head is kept beside it. Entries without an organization belong to their
// partner's chain (`partner:<id>`: partner settings, partner users and roles) or, with no partner either (a system
// administrator signing in), to the platform chain.

export const GENESIS = '0'.repeat(64);
export const PLATFORM_CHAIN = 'platform';

export const chainKey = ({ orgId, partnerId }: ChainRef): string =>
  orgId ?? (partnerId ? `partner:${partnerId}` : PLATFORM_CHAIN);

export function computeChecksum(row: ChainedRow): string {
  // partner_id joins the covered fields only when set, so entries written before partner chains keep their checksums.
  const partner = row.partner_id ? [row.partner_id] : [];
  return sha256Hex(
    JSON.stringify([
      row.id,
      row.org_id,
      row.timestamp,
      row.actor_type,
      row.actor_id,
      row.actor_email,
      row.action,
      row.resource_type,
      row.resource_id,
      row.resource_name,
      row.details,
      row.ip_address,
      row.user_agent,
      row.result,
      row.error_message,
      row.prev_checksum,
      ...partner,
    ]),
  );
}

export interface ChainVerification {
  chain: string;
  valid: boolean;
  checked: number;
  /** The first entry that fails, and why. */
  problem?: {
    reason: 'checksum_mismatch' | 'chain_broken' | 'head_mismatch';
    entryId: string | null;
    seq: number | null;
  };
}

/** Every chain that holds entries, after the platform chain (which may be empty): a platform-wide check. */
export function allChainRefs(db: Db): ChainRef[] {
  const rows = entryOwners(db);
  return [
    { orgId: null, partnerId: null },
    ...rows
      .filter((r) => r.orgId !== null || r.partnerId !== null)
      .map((r) => ({ orgId: r.orgId, partnerId: r.orgId === null ? r.partnerId : null })),
  ];
}

export function verifyChain(db: Db, ref: ChainRef): ChainVerification {
  const chain = chainKey(ref);
  const rows = chainEntries(db, ref);
  let prev = GENESIS;
  let checked = 0;
  let last: { seq: number; checksum: string } | null = null;
  for (const row of rows) {
    if (row.prev_checksum !== prev) {
      return {
        chain,
        valid: false,
        checked,
        problem: { reason: 'chain_broken', entryId: row.id, seq: row.seq },
      };
    }
    if (computeChecksum(row) !== row.checksum) {
      return {
        chain,
        valid: false,
        checked,
        problem: { reason: 'checksum_mismatch', entryId: row.id, seq: row.seq },
      };
    }
    prev = row.checksum;
    last = row;
    checked++;
  }
  const head = chainHead(db, chain);
  const headMatches = head
    ? head.last_seq === last?.seq && head.last_checksum === last.checksum && head.entry_count === checked
    : checked === 0;
  if (!headMatches) {
    return {
      chain,
      valid: false,
      checked,
      problem: { reason: 'head_mismatch', entryId: null, seq: last?.seq ?? null },
    };
  }
  return { chain, valid: true, checked };
}
