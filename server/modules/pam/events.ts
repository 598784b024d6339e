import type { AppContext } from '../../context';
import type { ElevationEvent, ElevationEventType } from '../../contract';
import { afterCommit } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import type { AuthContext } from '../../http/auth-context';
import { insertEventRow, requestStateOf } from './event-store';
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
  const row = requestStateOf(db, requestId);
  if (!row) return;
  insertEventRow(db, {
    requestId,
    state: row,
    type,
    actor,
    details: JSON.stringify(details),
    at: new Date().toISOString(),
  });
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
