import type { Scope } from '../contract';

/** Who is calling, resolved once per request by the authenticate middleware and read by every scope check. */
export interface AuthContext {
  kind: 'user';
  userId: string;
  email: string;
  scope: Scope;
  partnerId: string | null;
  orgId: string | null;
  roleId: string | null;
  /** The session satisfied MFA (TOTP, SMS or a recovery code). */
  mfa: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}
