import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { ElevationEvent, ElevationEventType } from '../../contract';
import { afterCommit } from '../../db/after-commit';
import { statement, type Db } from '../../db/connection';
import type { AuthContext } from '../../http/auth-context';
import { requestRow, toElevationRequest } from './store';

// Every state change of an elevation request is written twice, on purpose: once to `elevation_events` in the
// transaction that makes the change (the durable, exportable record), and once to the event bus after the
// transaction commits (console pushes, later webhooks). A change that rolls back is never announced. Both are
// called inside the transaction that makes the change.

export interface EventActor {
  type: ElevationEvent['actorType'];
  id: string | null;
  name: string | null;
}

export const SYSTEM_ACTOR: EventActor = { type: 'system', id: null, name: 'Gatehouse' };

export function userActor(auth: AuthContext, name: string | null): EventActor {
  return auth.kind === 'user'
    ? { type: 'user', id: auth.userId, name: name ?? auth.email }
    : { type: 'api_key', id: auth.apiKeyId, name: auth.keyName };
}

export function agentActor(deviceId: string, hostname: string): EventActor {
  return { type: 'agent', id: deviceId, name: hostname };
}

/** Appends the request's current state to its event log. Call inside the transaction that changed it. */
export function logEvent(
  db: Db,
  requestId: string,
  type: ElevationEventType,
  actor: EventActor,
  details: Record<string, unknown> = {},
): void {
  const row = statement(
    db,
    'SELECT org_id, site_id, device_id, status, enforcement_status FROM elevation_requests WHERE id = ?',
  ).get(requestId) as
    | {
        org_id: string;
        site_id: string | null;
        device_id: string;
        status: string;
        enforcement_status: string | null;
      }
    | undefined;
  if (!row) return;
  statement(
    db,
    `INSERT INTO elevation_events (id, elevation_request_id, org_id, site_id, device_id, event_type, status,
       enforcement_status, actor_type, actor_id, actor_name, details, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    randomUUID(),
    requestId,
    row.org_id,
    row.site_id,
    row.device_id,
    type,
    row.status,
    row.enforcement_status,
    actor.type,
    actor.id,
    actor.name,
    JSON.stringify(details),
    new Date().toISOString(),
  );
}

/** Announces the request as it stands once the enclosing transaction commits (at once outside one). */
export function publish(ctx: AppContext, type: ElevationEventType, requestId: string): void {
  afterCommit(ctx.db, () => {
    const row = requestRow(ctx.db, requestId);
    if (!row) return;
    const request = toElevationRequest(row);
    ctx.bus.emit(type, request.orgId, request);
  });
}
