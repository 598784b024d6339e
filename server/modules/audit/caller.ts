import type { Request } from 'express';
import type { AppContext } from '../../context';
import { auditActor, type AuthContext } from '../../http/auth-context';
import { clientInfo } from '../../http/client-info';
import type { AuditInput } from './writer';

export type CallerAuditEntry = Omit<
  AuditInput,
  'actorType' | 'actorId' | 'actorEmail' | 'ipAddress' | 'userAgent' | 'sessionId'
>;

/** Audits a write made by the caller (user or API key), with the caller's address and user agent (spec 1 Events). */
export function auditCaller(
  ctx: Pick<AppContext, 'audit'>,
  req: Request,
  auth: AuthContext,
  entry: CallerAuditEntry,
): void {
  const sessionId = auth.kind === 'user' ? auth.sessionId : null;
  ctx.audit.record({ ...entry, ...auditActor(auth), ...clientInfo(req), sessionId });
}
