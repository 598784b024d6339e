import type { Request, RequestHandler, Response } from 'express';
import { PARTNER_WRITE_CAP_PER_HOUR, type PartnerKeyScope } from '../../contract/partner-api';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../crypto';
import { forbidden, HttpError, unauthorized } from '../../http/errors';
import { API_KEY_HEADER } from '../api-keys';
import { partnerById } from '../tenancy';
import { partnerKeyByHash, touchPartnerKey } from './store';

// The partner service principal (spec 3, Authentication): `X-API-Key: psk_...` and nothing else. A user's JWT
// or an organization's `svc_` key never reaches /partner-api. The hash lookup goes through the secret guard, so
// keys that match nothing count as guesses per address; revoked and expired keys are real keys and do not.

export const PARTNER_KEY_PREFIX = 'psk_';
const WRITE_WINDOW_SECONDS = 3600;

export interface PartnerCaller {
  keyId: string;
  keyName: string;
  partnerId: string;
  scopes: readonly PartnerKeyScope[];
  rateLimit: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The partner service principal of an `auth: 'partner_key'` route, set before its body is read. */
    partnerCaller?: PartnerCaller;
  }
}

/** The route layer's middleware for `auth: 'partner_key'` (server/http/route.ts). */
export function partnerKeyAuthenticator(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    req.partnerCaller = authenticatePartnerKey(ctx, req);
    next();
  };
}

export function authenticatePartnerKey(ctx: AppContext, req: Request): PartnerCaller {
  const raw = req.get(API_KEY_HEADER);
  if (!raw) throw unauthorized('Missing X-API-Key header');
  if (!raw.startsWith(PARTNER_KEY_PREFIX))
    throw unauthorized('A partner provisioning key (psk_) is required');
  const key = ctx.guard.check({ kind: 'partner_key', req }, () => partnerKeyByHash(ctx.db, sha256Hex(raw)));
  if (!key) throw unauthorized('Invalid API key');
  if (key.status === 'revoked') throw unauthorized('API key is revoked');
  const at = new Date();
  if (key.expires_at && Date.parse(key.expires_at) <= at.getTime()) throw unauthorized('API key is expired');
  // A key outlives nothing its partner lost: a deleted or churned partner provisions nothing.
  const partner = partnerById(ctx.db, key.partner_id);
  if (!partner || partner.status === 'churned' || partner.status === 'suspended')
    throw forbidden('Partner is not active', 'PARTNER_INACTIVE');
  touchPartnerKey(ctx.db, key.id, at.toISOString());
  return {
    keyId: key.id,
    keyName: key.name,
    partnerId: key.partner_id,
    scopes: JSON.parse(key.scopes) as PartnerKeyScope[],
    rateLimit: key.rate_limit,
  };
}

export function requireScope(caller: PartnerCaller, scope: PartnerKeyScope): void {
  if (!caller.scopes.includes(scope))
    throw forbidden(`This key lacks the ${scope} scope`, 'PARTNER_KEY_SCOPE_REQUIRED', { required: scope });
}

/**
 * One write bucket per key: min(key limit, 120) writes per hour (sliding window in SQLite, so a restart does not
 * refill it). Reads do not draw from it.
 */
export function drawWrite(ctx: AppContext, caller: PartnerCaller, res: Response): void {
  const state = ctx.limiter.slidingHit(
    {
      bucket: 'partner-key-write',
      limit: Math.min(caller.rateLimit, PARTNER_WRITE_CAP_PER_HOUR),
      windowSeconds: WRITE_WINDOW_SECONDS,
    },
    caller.keyId,
  );
  res.set({
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetAt),
  });
  if (!state.allowed)
    throw new HttpError(
      429,
      'Partner write limit reached',
      'RATE_LIMITED',
      { retryAfterSeconds: state.retryAfterSeconds },
      { 'Retry-After': String(state.retryAfterSeconds) },
    );
}
