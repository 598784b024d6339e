import { timeOrderedId } from '../../db/ids';
import type { Logger } from 'pino';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import type { EventBus } from '../../events/bus';
import { chainKey, computeChecksum, GENESIS, type ChainedRow } from './chain';
import { actorRoleName } from './actor-store';
import { appendEntry, chainHead } from './chain-store';

// The audit writer never blocks a request: record() only queues, and the queue is written on the next turn of
// the event loop in one transaction. A failed write is logged and dropped (spec 2), never surfaced to the caller.

export type ActorType = 'user' | 'api_key' | 'agent' | 'system';

export interface AuditInput {
  orgId: string | null;
  /** For entries without an organization: the partner they belong to (its chain); null for platform entries. */
  partnerId?: string | null;
  actorType: ActorType;
  actorId: string;
  actorEmail?: string | null;
  action: string;
  resourceType: string;
  resourceId?: string | null;
  resourceName?: string | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
  userAgent?: string | null;
  result?: 'success' | 'failure' | 'denied';
  errorMessage?: string | null;
  /** The console session (refresh family) of a user's request. */
  sessionId?: string | null;
}

/** Entries written per turn of the event loop: a few milliseconds of hashing and inserting on a small machine. */
const AUDIT_BATCH_PER_TURN = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

const clip = (value: string | null | undefined, max: number): string | null =>
  value === undefined || value === null ? null : value.slice(0, max);

export class AuditWriter {
  private queue: AuditInput[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  record(input: AuditInput): void {
    this.queue.push(input);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush(AUDIT_BATCH_PER_TURN));
  }

  /**
   * Writes what is queued, at most `limit` entries (each hashed into its chain) in this turn of the event loop; the
   * rest follow in the next turns, so a storm of audited agent reports never holds the loop for long. Shutdown
   * writes everything.
   */
  flush(limit = Infinity): void {
    this.scheduled = false;
    const batch = this.queue.length > limit ? this.queue.splice(0, limit) : this.queue;
    if (batch === this.queue) this.queue = [];
    else this.scheduleFlush();
    if (batch.length === 0) return;
    const written: ChainedRow[] = [];
    try {
      transaction(this.db, () => {
        for (const input of batch) written.push(this.write(input));
      });
    } catch (err) {
      this.log.error({ err, count: batch.length }, 'audit write failed; entries dropped');
      return;
    }
    for (const row of written) {
      this.bus.emit('audit.created', row.org_id, {
        id: row.id,
        action: row.action,
        actorEmail: row.actor_email,
        resourceType: row.resource_type,
        resourceId: row.resource_id,
        result: row.result,
        timestamp: row.timestamp,
      });
    }
  }

  private write(input: AuditInput): ChainedRow {
    const details: Record<string, unknown> = { ...(input.details ?? {}) };
    let actorId = input.actorId;
    if (!UUID.test(actorId)) {
      details.rawActorId = actorId;
      actorId = ZERO_UUID;
    }
    let resourceId = input.resourceId ?? null;
    if (resourceId !== null && !UUID.test(resourceId)) {
      details.rawResourceId = resourceId;
      resourceId = ZERO_UUID;
    }
    const partnerId = input.orgId === null ? (input.partnerId ?? null) : null;
    const chain = chainKey({ orgId: input.orgId, partnerId });
    const head = chainHead(this.db, chain);
    const row: ChainedRow = {
      id: timeOrderedId(),
      org_id: input.orgId,
      partner_id: partnerId,
      timestamp: new Date().toISOString(),
      actor_type: input.actorType,
      actor_id: actorId,
      actor_email: clip(input.actorEmail, 255),
      action: input.action.slice(0, 100),
      resource_type: input.resourceType.slice(0, 50),
      resource_id: resourceId,
      resource_name: clip(input.resourceName, 255),
      details: JSON.stringify(details),
      ip_address: clip(input.ipAddress, 45),
      user_agent: input.userAgent ?? null,
      result: input.result ?? 'success',
      error_message: input.errorMessage ?? null,
      // The role at the time of the entry: a later role change or removal does not rewrite what was done as whom.
      actor_role:
        input.actorType === 'user' && actorId !== ZERO_UUID
          ? (actorRoleName(this.db, actorId, input.orgId)?.slice(0, 255) ?? null)
          : null,
      session_id: input.sessionId ?? null,
      prev_checksum: head?.last_checksum ?? GENESIS,
    };
    const checksum = computeChecksum(row);
    appendEntry(this.db, chain, { ...row, checksum });
    return row;
  }
}
