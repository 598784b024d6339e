import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { randomToken, sha256Hex } from '../../crypto';
import { statement, type Db } from '../../db/connection';
import type { ClientInfo } from '../../http/client-info';
import { unauthorized } from '../../http/errors';
import type { Membership } from '../users';

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

interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  mfa: 0 | 1;
  expires_at: string;
  replaced_by: string | null;
  revoked_at: string | null;
}

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

/**
 * The session is live: the user is active with this token_version, and the newest token of the family (the
 * one not yet replaced) is not revoked. One indexed lookup per authenticated request and per socket upgrade.
 */
const LIVE_SESSION_SQL = `
  SELECT u.email FROM users u
  WHERE u.id = ? AND u.status = 'active' AND u.token_version = ?
    AND EXISTS (SELECT 1 FROM refresh_tokens r
                WHERE r.family_id = ? AND r.user_id = u.id AND r.replaced_by IS NULL AND r.revoked_at IS NULL)`;

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
   * The email of the account behind a live session (see LIVE_SESSION_SQL), or null when the session, the
   * account or the token version no longer holds.
   */
  liveSession(userId: string, sessionId: string, tokenVersion: number): { email: string } | null {
    const row = statement(this.db, LIVE_SESSION_SQL).get(userId, tokenVersion, sessionId) as
      { email: string } | undefined;
    return row ?? null;
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
    this.db
      .prepare(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, mfa, created_at, expires_at, ip_address, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        userId,
        familyId,
        sha256Hex(token),
        mfa ? 1 : 0,
        now.toISOString(),
        new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
        client.ipAddress,
        client.userAgent,
      );
    return { id, token, sessionId: familyId };
  }

  /**
   * Exchanges a refresh token for a new one in the same family. A token already rotated is reuse: the family
   * is revoked and RefreshReuseError thrown. Runs in one transaction, so two concurrent uses cannot both win.
   */
  rotate(token: string, client: ClientInfo): Rotation {
    const outcome = this.db.transaction(() => {
      const row = this.db
        .prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?')
        .get(sha256Hex(token)) as RefreshRow | undefined;
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
      this.db
        .prepare(
          "UPDATE refresh_tokens SET replaced_by = ?, revoked_at = ?, revoked_reason = 'rotated' WHERE id = ?",
        )
        .run(next.id, new Date().toISOString(), row.id);
      return { kind: 'rotated' as const, userId: row.user_id, mfa: row.mfa === 1, refresh: next };
    })();
    if (outcome.kind === 'reused') throw new RefreshReuseError(outcome.userId, outcome.sessionId);
    if (outcome.kind === 'invalid') throw unauthorized(outcome.message, 'REFRESH_TOKEN_INVALID');
    return outcome;
  }

  revokeFamily(familyId: string, reason: string): void {
    this.db
      .prepare(
        'UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE family_id = ? AND revoked_at IS NULL',
      )
      .run(new Date().toISOString(), reason, familyId);
  }

  revokeAllForUser(userId: string, reason: string): void {
    this.db
      .prepare(
        'UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL',
      )
      .run(new Date().toISOString(), reason, userId);
  }
}
