import { randomUUID } from 'node:crypto';
import type { ElevationEvent, ElevationEventType } from '../../contract';
import { statement, type Db } from '../../db/connection';

// The SQL of a request's event log (events.ts): each event records the request's state as it stands.

export interface RequestState {
  org_id: string;
  site_id: string | null;
  device_id: string;
  status: string;
  enforcement_status: string | null;
}

export function requestStateOf(db: Db, requestId: string): RequestState | undefined {
  return statement(
    db,
    'SELECT org_id, site_id, device_id, status, enforcement_status FROM elevation_requests WHERE id = ?',
  ).get(requestId) as RequestState | undefined;
}

export function insertEventRow(
  db: Db,
  event: {
    requestId: string;
    state: RequestState;
    type: ElevationEventType;
    actor: { type: ElevationEvent['actorType']; id: string | null; name: string | null };
    /** JSON text. */
    details: string;
    at: string;
  },
): void {
  const { state, actor } = event;
  statement(
    db,
    `INSERT INTO elevation_events (id, elevation_request_id, org_id, site_id, device_id, event_type, status,
       enforcement_status, actor_type, actor_id, actor_name, details, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    randomUUID(),
    event.requestId,
    state.org_id,
    state.site_id,
    state.device_id,
    event.type,
    state.status,
    state.enforcement_status,
    actor.type,
    actor.id,
    actor.name,
    event.details,
    event.at,
  );
}
