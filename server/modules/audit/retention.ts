import { AUDIT_RETENTION_DEFAULT_DAYS, type AuditRetentionPolicy } from '../../contract';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import { chainKey } from './chain';
import { advanceAnchor } from './chain-store';
import {
  batchEnd,
  cutBound,
  deleteChainPrefix,
  recordCleanup,
  retentionRow,
  retentionTargets,
} from './retention-store';

// Retention per organization (spec 2): entries older than the window go, oldest first, in batches. Each batch is
// one transaction that deletes a prefix of the organization's chain and moves the chain's anchor to the last row
// it removed, so verification (chain.ts) starts from the anchor and the chain stays verifiable after every batch,
// even if the server stops half way. Partner and platform chains are not cut (they hold no organization's data).

const DAY_MS = 24 * 3600 * 1000;
/** Rows per batch: each transaction stays short, so requests are not held up behind a large cut. */
export const RETENTION_BATCH = 5_000;

export function retentionPolicy(db: Db, orgId: string): AuditRetentionPolicy {
  const row = retentionRow(db, orgId);
  return {
    orgId,
    retentionDays: row?.retention_days ?? AUDIT_RETENTION_DEFAULT_DAYS,
    archiveToS3: false,
    archiveSupported: false,
    lastCleanupAt: row?.last_cleanup_at ?? null,
    lastCleanupRemoved: row?.last_cleanup_removed ?? 0,
    updatedAt: row?.updated_at ?? null,
  };
}

/** Cuts one organization's old rows; returns how many went. Yields to the event loop between batches. */
async function cutOrganization(
  ctx: Pick<AppContext, 'db' | 'audit'>,
  orgId: string,
  days: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const cutAt = now.toISOString();
  const chain = chainKey({ orgId, partnerId: null });
  let removed = 0;
  let last: { seq: number; checksum: string } | undefined;
  // Fixed before the first batch: rows written while the cut runs have higher seqs and stay.
  const bound = cutBound(ctx.db, orgId, cutoff);
  while (bound !== undefined) {
    const batch = transaction(ctx.db, () => {
      const end = batchEnd(ctx.db, orgId, bound, RETENTION_BATCH);
      if (!end) return 0;
      const n = deleteChainPrefix(ctx.db, orgId, end.seq);
      advanceAnchor(ctx.db, chain, { seq: end.seq, checksum: end.checksum, cutAt, removed: n });
      last = end;
      return n;
    });
    removed += batch;
    if (batch < RETENTION_BATCH) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  transaction(ctx.db, () => recordCleanup(ctx.db, orgId, cutAt, removed));
  if (removed > 0 && last) {
    // The cleanup is itself audited, in the chain it cut, naming the anchor it left: a reader can match the
    // anchor verification starts from with the entry that made it (verify does not require it: the entry is
    // written after the cut commits, and a crash in between must not make an honest chain fail).
    ctx.audit.record({
      orgId,
      actorType: 'system',
      actorId: 'audit-retention',
      action: 'audit.retention.cleanup',
      resourceType: 'audit_log',
      details: { removed, retentionDays: days, cutoff, anchorSeq: last.seq, anchorChecksum: last.checksum },
    });
  }
  return removed;
}

/** One pass over every organization; returns the organizations that lost rows and how many. */
export async function runAuditRetention(
  ctx: Pick<AppContext, 'db' | 'audit'>,
  now = new Date(),
): Promise<Array<{ orgId: string; removed: number }>> {
  const outcome: Array<{ orgId: string; removed: number }> = [];
  for (const { orgId, days } of retentionTargets(ctx.db, AUDIT_RETENTION_DEFAULT_DAYS)) {
    const removed = await cutOrganization(ctx, orgId, days, now);
    if (removed > 0) outcome.push({ orgId, removed });
  }
  return outcome;
}
