import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { randomToken, sha256Hex } from '../../crypto';
import type { Db } from '../../db/connection';
import type { ClientInfo } from '../../http/client-info';
import { unauthorized } from '../../http/errors';
import type { Membership } from '../users/store';

// Access tokens are short-lived JWTs (the spec leaves the lifetime open: 15 minutes, so a revoked technician
// loses access quickly while the console refreshes silently). Refresh tokens are opaque, stored as SHA-256 hashes,
// rotate on every use, and belong to a family: presenting a token that was already rotated means it was copied,
// so the whole family is revoked.

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
  constructor(readonly userId: string) {
    super('refresh token reuse');
  }
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
  ): Promise<string> {
    const claims: Omit<AccessClaims, 'sub'> = {
      typ: 'access',
      scope: membership.scope,
      partnerId: membership.partnerId,
      orgId: membership.orgId,
      roleId: membership.roleId,
      mfa,
      tv: tokenVersion,
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

  /** Starts a new family (a sign-in) or continues one (a rotation); returns the raw token, shown once. */
  issueRefresh(
    userId: string,
    mfa: boolean,
    client: ClientInfo,
    familyId: string = randomUUID(),
  ): { id: string; token: string } {
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
    return { id, token };
  }

  /**
   * Exchanges a refresh token for a new one in the same family. A token already rotated is reuse: the family
   * is revoked and RefreshReuseError thrown. Runs in one transaction, so two concurrent uses cannot both win.
   */
  rotate(token: string, client: ClientInfo): { userId: string; mfa: boolean; token: string } {
    const outcome = this.db.transaction(() => {
      const row = this.db
        .prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?')
        .get(sha256Hex(token)) as RefreshRow | undefined;
      if (!row) return { kind: 'invalid' as const, message: 'Invalid refresh token' };
      if (row.replaced_by) {
        // Committed with the transaction: throwing here would roll the revocation back.
        this.revokeFamily(row.family_id, 'reuse_detected');
        return { kind: 'reused' as const, userId: row.user_id };
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
      return { kind: 'rotated' as const, userId: row.user_id, mfa: row.mfa === 1, token: next.token };
    })();
    if (outcome.kind === 'reused') throw new RefreshReuseError(outcome.userId);
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
