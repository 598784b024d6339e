import { statement, type Db } from '../../db/connection';

// The sign-in entry of a console session: the `user.login` entry written with the session's id when it began. Read
// through the time index (audit_logs_time) over the minute after the session's first token, so it costs one short
// range scan however large the log is.

/** How long after a session's first token its sign-in entry may be written (the writer flushes on the next tick). */
const SIGN_IN_WINDOW_MS = 60_000;

export function signInEntryDetails(
  db: Db,
  userId: string,
  sessionId: string,
  startedAt: string,
): Record<string, unknown> | null {
  const until = new Date(Date.parse(startedAt) + SIGN_IN_WINDOW_MS).toISOString();
  const row = statement(
    db,
    `SELECT details FROM audit_logs
      WHERE timestamp >= ? AND timestamp <= ? AND action = 'user.login' AND session_id = ? AND actor_id = ?
      ORDER BY seq LIMIT 1`,
  ).get(startedAt, until, sessionId, userId) as { details: string } | undefined;
  return row ? (JSON.parse(row.details) as Record<string, unknown>) : null;
}
