import type { Db } from '../../db/connection';
import type { EventBus } from '../../events/bus';
import { bumpTokenVersion } from './store';

/**
 * Invalidates every access token already issued to the user and says so on the bus, so live console sockets are
 * closed at once too (the store only changes the row; telling others is this module's business). Takes the two
 * parts of the context it needs rather than AppContext, which imports this module through TokenService.
 */
export function revokeUserSessions(ctx: { db: Db; bus: EventBus }, userId: string): void {
  bumpTokenVersion(ctx.db, userId);
  ctx.bus.emit('user.sessions_revoked', null, { userId });
}
