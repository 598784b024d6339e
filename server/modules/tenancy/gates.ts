import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { AuthContext, UserAuth } from '../../http/auth-context';
import { forbidden } from '../../http/errors';
import { auditCaller } from '../audit';
import type { Json } from './settings';

// What every /orgs handler shares: the scope gates, the audit entry of a write, the fields a body sends, and the
// slug conflict that the UNIQUE column also decides.

export function requireSystem(auth: AuthContext): void {
  if (auth.scope !== 'system') throw forbidden('System scope required', 'SYSTEM_SCOPE_REQUIRED');
}

export function requirePartnerScope(auth: AuthContext): asserts auth is UserAuth & { partnerId: string } {
  if (auth.kind !== 'user' || auth.scope !== 'partner' || !auth.partnerId)
    throw forbidden('Partner scope required', 'PARTNER_SCOPE_REQUIRED');
}

export function requirePartnerOrSystem(auth: AuthContext): void {
  if (auth.scope !== 'partner' && auth.scope !== 'system')
    throw forbidden('Partner or system scope required');
}

export function auditTenancy(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  entry: {
    orgId: string | null;
    partnerId?: string;
    action: string;
    resourceType: 'partner' | 'organization' | 'site';
    resourceId: string;
    resourceName: string;
    details?: Json;
  },
): void {
  auditCaller(ctx, req, auth, entry);
}

export const definedKeys = (body: object): string[] =>
  Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);

export const SLUG_TAKEN = 'SLUG_TAKEN';

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
