import type { Scope } from '../contract';
import type { ActorType } from '../modules/audit/writer';

/** What every caller has: a place in the tenant tree. */
interface CallerBase {
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
  /** The session satisfied MFA (TOTP, SMS or a recovery code). API keys never do. */
  mfa: boolean;
}

/** A console user signed in with a Bearer JWT. */
export interface UserAuth extends CallerBase {
  kind: 'user';
  userId: string;
  email: string;
  roleId: string | null;
  /** The session (refresh family) the access token belongs to: what a console-socket ticket re-checks. */
  sessionId: string;
  /** users.token_version when the token was signed. */
  tokenVersion: number;
}

/** An integration calling with `X-API-Key`: always bound to one organization (spec 1, API key). */
export interface ApiKeyAuth extends CallerBase {
  kind: 'api_key';
  scope: 'organization';
  orgId: string;
  apiKeyId: string;
  keyName: string;
  /** `resource:action` strings; `*` passes every scope check. */
  scopes: string[];
}

/** Who is calling, resolved once per request by the authenticate middleware and read by every scope check. */
export type AuthContext = UserAuth | ApiKeyAuth;

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}

/** The audit actor of a caller: the user, or the API key acting for its organization. */
export function auditActor(auth: AuthContext): {
  actorType: ActorType;
  actorId: string;
  actorEmail: string | null;
} {
  return auth.kind === 'user'
    ? { actorType: 'user', actorId: auth.userId, actorEmail: auth.email }
    : { actorType: 'api_key', actorId: auth.apiKeyId, actorEmail: null };
}
