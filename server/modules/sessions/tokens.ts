import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { randomToken, sha256Hex } from '../../crypto';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import type { ClientInfo } from '../../http/client-info';
import { unauthorized } from '../../http/errors';
import type { Membership } from '../users';
import {
  insertRefreshToken,
  liveSessionEmail,
  markRotated,
  refreshTokenByHash,
  revokeFamilyTokens,
  revokeUserTokens,
} from './refresh-token-store';

// Access tokens are short-lived JWTs (the spec leaves the lifetime open: 15 minutes, so the console refreshes
// silently). Refresh tokens are opaque, stored as SHA-256 hashes, rotate on every use, and belong to a family:
// presenting a token that was already rotated means it was copied, so the whole family is revoked.
//
// A family is a session (one sign-in on one device), and its id is the access token's `sid`. An access token
// counts only while its session does: every request checks that the family's newest token is not revoked and
// that the user's token_version still matches `tv`. So any revocation (logout, password change, reuse
// detection, disable, removal) ends the access tokens it concerns at once, not when they expire.

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
const ISSUER = 'gatehouse';
const AUDIENCE = 'gatehouse-console';

const claimsSchema = z.object({
  sub: z.string(),
  typ: z.literal('access'),
  scope: z.enum(['system', 'partner', 'organization']),
  partnerId: z.string().nullable(),
  orgId: z.string().nullable(),
  roleId: z.string().nullable(),
  mfa: z.boolean(),
  tv: z.number().int(),
  /** The session (refresh family). Tokens signed before sessions were named lack it and are refused. */
  sid: z.string(),
});
export type AccessClaims = z.infer<typeof claimsSchema>;

export class RefreshReuseError extends Error {
  constructor(
    readonly userId: string,
    /** The session (family) that was revoked. */
    readonly sessionId: string,
  ) {
    super('refresh token reuse');
  }
}

/** A refresh token as issued: the raw value (shown once) and the session it belongs to. */
export interface IssuedRefresh {
  id: string;
  token: string;
  sessionId: string;
}

/** A successful rotation: whose session it is and the family's new refresh token. */
export interface Rotation {
  userId: string;
  mfa: boolean;
  refresh: IssuedRefresh;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    private readonly db: Db,
    jwtSecret: string,
  ) {
    this.key = new TextEncoder().encode(jwtSecret);
  }

  async signAccess(
    userId: string,
    membership: Membership,
    mfa: boolean,
    tokenVersion: number,
    sessionId: string,
  ): Promise<string> {
    const claims: Omit<AccessClaims, 'sub'> = {
      typ: 'access',
      scope: membership.scope,
      partnerId: membership.partnerId,
      orgId: membership.orgId,
      roleId: membership.roleId,
      mfa,
      tv: tokenVersion,
      sid: sessionId,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) throw unauthorized('Invalid access token', 'TOKEN_INVALID');
      return parsed.data;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Access token expired', 'TOKEN_EXPIRED');
      if (err instanceof joseErrors.JOSEError) throw unauthorized('Invalid access token', 'TOKEN_INVALID');
      throw err;
    }
  }

  /**
   * The email of the account behind a live session (see liveSessionEmail), or null when the session, the
   * account or the token version no longer holds.
   */
  liveSession(userId: string, sessionId: string, tokenVersion: number): { email: string } | null {
    const email = liveSessionEmail(this.db, userId, tokenVersion, sessionId);
    return email === null ? null : { email };
  }

  /** Starts a new family (a sign-in) or continues one (a rotation); returns the raw token, shown once. */
  issueRefresh(
    userId: string,
    mfa: boolean,
    client: ClientInfo,
    familyId: string = randomUUID(),
  ): IssuedRefresh {
    const id = randomUUID();
    const token = `grt_${randomToken(32)}`;
    const now = new Date();
    insertRefreshToken(this.db, {
      id,
      userId,
      familyId,
      tokenHash: sha256Hex(token),
      mfa,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      ipAddress: client.ipAddress,
      userAgent: client.userAgent,
    });
    return { id, token, sessionId: familyId };
  }

  /**
   * Exchanges a refresh token for a new one in the same family. A token already rotated is reuse: the family
   * is revoked and RefreshReuseError thrown. Runs in one transaction, so two concurrent uses cannot both win.
   */
  rotate(token: string, client: ClientInfo): Rotation {
    const outcome = transaction(this.db, () => {
      const row = refreshTokenByHash(this.db, sha256Hex(token));
      if (!row) return { kind: 'invalid' as const, message: 'Invalid refresh token' };
      if (row.replaced_by) {
        // Committed with the transaction: throwing here would roll the revocation back.
        this.revokeFamily(row.family_id, 'reuse_detected');
        return { kind: 'reused' as const, userId: row.user_id, sessionId: row.family_id };
      }
      if (row.revoked_at) return { kind: 'invalid' as const, message: 'Refresh token revoked' };
      if (Date.parse(row.expires_at) <= Date.now())
        return { kind: 'invalid' as const, message: 'Refresh token expired' };
      const next = this.issueRefresh(row.user_id, row.mfa === 1, client, row.family_id);
      markRotated(this.db, row.id, next.id, new Date().toISOString());
      return { kind: 'rotated' as const, userId: row.user_id, mfa: row.mfa === 1, refresh: next };
    });
    if (outcome.kind === 'reused') throw new RefreshReuseError(outcome.userId, outcome.sessionId);
    if (outcome.kind === 'invalid') throw unauthorized(outcome.message, 'REFRESH_TOKEN_INVALID');
    return outcome;
  }

  revokeFamily(familyId: string, reason: string): void {
    revokeFamilyTokens(this.db, familyId, reason, new Date().toISOString());
  }

  revokeAllForUser(userId: string, reason: string): void {
    revokeUserTokens(this.db, userId, reason, new Date().toISOString());
  }
}
