import type {
  AuditChainAnchor,
  AuditChainProblem,
  AuditChainVerification,
  AuditRowRef,
} from '../../contract';
import { sha256Hex } from '../../crypto';
import type { Db } from '../../db/connection';
import {
  chainAnchor,
  chainEntries,
  chainHead,
  entryOwners,
  type AnchorRow,
  type ChainedRow,
  type ChainRef,
} from './chain-store';

export type { ChainedRow, ChainRef } from './chain-store';
export type ChainVerification = AuditChainVerification;

// Per-organization hash chain (DESIGN §6). Each row's checksum covers its content and the previous row's
// checksum in the same chain; the chain head is kept beside it. Entries without an organization belong to their
// partner's chain (`partner:<id>`: partner settings, partner users and roles) or, with no partner either (a system
// administrator signing in), to the platform chain. Retention cuts a chain's oldest rows and records an anchor (the
// last removed row's seq and checksum): verification starts from it instead of genesis.

export const GENESIS = '0'.repeat(64);
export const PLATFORM_CHAIN = 'platform';
/** Problems listed per chain: enough to locate tampering, bounded so a wrecked chain answers quickly. */
const MAX_PROBLEMS = 20;

export const chainKey = ({ orgId, partnerId }: ChainRef): string =>
  orgId ?? (partnerId ? `partner:${partnerId}` : PLATFORM_CHAIN);

export function computeChecksum(row: ChainedRow): string {
  // Fields added later join the covered list only when set, so entries written before them keep their checksums:
  // partner_id (partner chains), then the actor's role and session as one object (never confused with a string).
  const partner = row.partner_id ? [row.partner_id] : [];
  const role = row.actor_role ?? null;
  const session = row.session_id ?? null;
  const actor = role !== null || session !== null ? [{ role, session }] : [];
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
      ...actor,
    ]),
  );
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

export const anchorView = (a: AnchorRow | undefined): AuditChainAnchor | null =>
  a ? { seq: a.seq, checksum: a.checksum, cutAt: a.cut_at, rowsRemoved: a.rows_removed } : null;

const rowRef = (row: { id: string; seq: number; timestamp: string; action: string }): AuditRowRef => ({
  id: row.id,
  seq: row.seq,
  timestamp: row.timestamp,
  action: row.action,
});

/**
 * Walks one chain and names every row edited (content no longer matches its checksum) and every place rows went
 * missing (a link that does not match the row before it, the anchor, or the head). After a problem the walk goes on
 * from the stored checksum, so one edit does not hide a later one.
 */
export function verifyChain(db: Db, ref: ChainRef): AuditChainVerification {
  const started = performance.now();
  const chain = chainKey(ref);
  const anchor = chainAnchor(db, chain);
  const problems: AuditChainProblem[] = [];
  const report = (p: AuditChainProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  let prev = anchor?.checksum ?? GENESIS;
  let last: (AuditRowRef & { checksum: string }) | null = null;
  let checked = 0;
  for (const row of chainEntries(db, ref)) {
    const here = rowRef(row);
    if (row.prev_checksum !== prev) {
      const atStart = last === null && anchor !== undefined;
      report({
        reason: atStart ? 'anchor_mismatch' : 'chain_broken',
        entryId: row.id,
        seq: row.seq,
        removed: { after: last && rowRef(last), before: here },
      });
    }
    if (computeChecksum(row) !== row.checksum) {
      report({ reason: 'checksum_mismatch', entryId: row.id, seq: row.seq, edited: here });
    }
    prev = row.checksum;
    last = { ...here, checksum: row.checksum };
    checked++;
  }
  const head = chainHead(db, chain);
  // The newest row must be the one the head names (or, when a cut removed every row, the anchor must be).
  const newest = last ?? (anchor ? { seq: anchor.seq, checksum: anchor.checksum } : null);
  const headMatches = head
    ? head.last_seq === newest?.seq && head.last_checksum === newest.checksum
    : newest === null;
  const expected = head ? head.entry_count - (anchor?.rows_removed ?? 0) : 0;
  // A count that disagrees while every link holds means rows went missing where no link shows it.
  if (!headMatches || (problems.length === 0 && expected !== checked)) {
    report({
      reason: 'head_mismatch',
      entryId: null,
      seq: last?.seq ?? null,
      removed: { after: last && rowRef(last), before: null, expectedHeadSeq: head?.last_seq ?? null },
    });
  }
  const first = problems[0];
  return {
    chain,
    orgId: ref.orgId,
    partnerId: ref.orgId === null ? ref.partnerId : null,
    valid: problems.length === 0,
    checked,
    ...(first ? { problem: first } : {}),
    problems,
    anchor: anchorView(anchor),
    durationMs: Math.round(performance.now() - started),
  };
}
