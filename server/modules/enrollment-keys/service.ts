import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { EnrollmentKey, EnrollmentKeyCreated } from '../../contract/keys';
import { type UserAuth } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { paginated } from '../../http/pagination';
import {
  DEVICE_GROUP_DENIED,
  deviceGroupRestriction,
  requireOrgAccess,
  requireSiteAccess,
  requireUnrestricted,
  resolveOrgScope,
  scopeCovers,
} from '../../http/scope';
import { auditCaller } from '../audit';
import { siteById } from '../tenancy';
import type { createEnrollmentKeyBody, listEnrollmentKeysQuery, rotateEnrollmentKeyBody } from './schemas';
import {
  deleteEnrollmentKeyRow,
  enrollmentKeyById,
  insertEnrollmentKeyRow,
  listEnrollmentKeyRows,
  liveEnrollmentKeyRow,
  probeEnrollmentKey,
  redeemEnrollmentKeyRow,
  rotateEnrollmentKeyRow,
  toEnrollmentKey,
  type EnrollmentKeyRow,
} from './store';

// Rules of /enrollment-keys (spec 1, Enrollment key; Authentication §6) and the redemption used by agent
// enrollment. A key is 32 random bytes as 64 hex characters, shown once; storage keeps only a peppered hash.

const NOT_FOUND = 'Enrollment key not found';

/**
 * The stored hash: HMAC-SHA256 keyed with the server pepper (ENROLLMENT_KEY_PEPPER, else APP_ENCRYPTION_KEY,
 * SECRET_ENCRYPTION_KEY, JWT_SECRET; see secrets.ts). HMAC rather than sha256(pepper + key): it is the standard
 * keyed-hash construction, with no ambiguity about where the pepper ends and the key begins. A database stolen
 * without the pepper yields nothing that can be tried against the enrollment endpoint, and a changed pepper makes
 * every existing key fail, as the spec says.
 */
export function hashEnrollmentKey(pepper: string, rawKey: string): string {
  return createHmac('sha256', pepper).update(rawKey, 'utf8').digest('hex');
}

export function generateEnrollmentKey(pepper: string): { key: string; hash: string } {
  const key = randomBytes(32).toString('hex');
  return { key, hash: hashEnrollmentKey(pepper, key) };
}

/**
 * The spec gives the default lifetime both as 60 minutes (ENROLLMENT_KEY_DEFAULT_TTL_MINUTES) and as 30 days.
 * We take 60 minutes: an enrollment key is a bearer credential that places devices into a customer's tenant,
 * keys travel through tickets, chat and deployment scripts, and a short default bounds what a leaked key can do.
 * The setting's name also counts in minutes. A mass rollout passes an explicit `expiresAt` (or raises the
 * setting), which is a deliberate choice rather than an accident of defaults.
 */
export function defaultEnrollmentKeyExpiry(ctx: Pick<AppContext, 'config'>, nowMs = Date.now()): string {
  return new Date(nowMs + ctx.config.enrollmentKeyDefaultTtlMinutes * 60_000).toISOString();
}

/**
 * Stores a new key and returns it with its raw value. No scope check and no audit entry: callers that act for a
 * user (the route below) do both; the demo seeder uses it directly.
 */
export function insertEnrollmentKey(
  ctx: Pick<AppContext, 'db' | 'config' | 'enrollmentKeyPepper'>,
  input: {
    orgId: string;
    siteId: string | null;
    name: string;
    maxUsage: number;
    expiresAt?: string | undefined;
    createdBy: string;
  },
): { row: EnrollmentKeyRow; key: string } {
  const { key, hash } = generateEnrollmentKey(ctx.enrollmentKeyPepper);
  const id = randomUUID();
  const at = new Date().toISOString();
  insertEnrollmentKeyRow(ctx.db, {
    id,
    orgId: input.orgId,
    siteId: input.siteId,
    name: input.name,
    keyHash: hash,
    maxUsage: input.maxUsage,
    expiresAt: input.expiresAt ?? defaultEnrollmentKeyExpiry(ctx, Date.parse(at)),
    createdBy: input.createdBy,
    at,
  });
  return { row: enrollmentKeyById(ctx.db, id)!, key };
}

function audit(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  action: string,
  row: EnrollmentKeyRow,
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action,
    resourceType: 'enrollment_key',
    resourceId: row.id,
    resourceName: row.name,
    details,
  });
}

function keyInScope(ctx: AppContext, auth: UserAuth, id: string): EnrollmentKeyRow {
  const row = enrollmentKeyById(ctx.db, id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(NOT_FOUND);
  return row;
}

/**
 * Spec 1 §6: an organization-scoped caller works in its own organization (orgId inferred; naming another one is
 * refused by the access check); partner and system callers must say which organization they mean.
 */
function targetOrg(ctx: AppContext, auth: UserAuth, orgId: string | undefined): string {
  let target = orgId;
  if (auth.scope === 'organization') {
    if (!auth.orgId) throw forbidden('Organization context required');
    target ??= auth.orgId;
  }
  if (!target) throw badRequest(`orgId is required for ${auth.scope} scope`);
  return requireOrgAccess(ctx.db, auth, target).id;
}

export function listEnrollmentKeys(
  ctx: AppContext,
  auth: UserAuth,
  query: z.infer<typeof listEnrollmentKeysQuery>,
) {
  if (query.orgId) requireOrgAccess(ctx.db, auth, query.orgId);
  const now = Date.now();
  const { rows, total } = listEnrollmentKeyRows(
    ctx.db,
    resolveOrgScope(ctx.db, auth),
    { orgId: query.orgId, expired: query.expired === undefined ? undefined : query.expired === 'true' },
    query,
  );
  return paginated(
    rows.map((r) => toEnrollmentKey(r, now)),
    query,
    total,
  );
}

export function getEnrollmentKey(ctx: AppContext, auth: UserAuth, id: string): EnrollmentKey {
  return toEnrollmentKey(keyInScope(ctx, auth, id));
}

export function createEnrollmentKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: z.infer<typeof createEnrollmentKeyBody>,
): EnrollmentKeyCreated {
  const orgId = targetOrg(ctx, auth, body.orgId);
  const siteId = body.siteId ?? null;
  if (siteId) {
    // One answer for a missing site and another organization's site: no probing across tenants.
    if (siteById(ctx.db, siteId)?.org_id !== orgId)
      throw badRequest('siteId must be a site of the organization');
    // A site-restricted user places agents only in the sites they may reach. A group-restricted user places none:
    // a new device joins no group, so it would be outside what they may see.
    requireSiteAccess(ctx.db, auth, siteId);
    if (deviceGroupRestriction(ctx.db, auth)) throw forbidden(DEVICE_GROUP_DENIED);
  } else {
    requireUnrestricted(ctx.db, auth);
  }
  const { row, key } = insertEnrollmentKey(ctx, {
    orgId,
    siteId,
    name: body.name,
    maxUsage: body.maxUsage,
    expiresAt: body.expiresAt,
    createdBy: auth.userId,
  });
  audit(ctx, req, auth, 'enrollment_key.create', row, {
    siteId,
    maxUsage: row.max_usage,
    expiresAt: row.expires_at,
  });
  return { ...toEnrollmentKey(row), key };
}

/** New key material, usage back to 0; maxUsage and expiresAt change only when sent (null maxUsage = unlimited). */
export function rotateEnrollmentKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  id: string,
  body: z.infer<typeof rotateEnrollmentKeyBody>,
): EnrollmentKeyCreated {
  const row = keyInScope(ctx, auth, id);
  const maxUsage = body.maxUsage === undefined ? row.max_usage : body.maxUsage;
  const expiresAt = body.expiresAt ?? row.expires_at;
  const { key, hash } = generateEnrollmentKey(ctx.enrollmentKeyPepper);
  if (!rotateEnrollmentKeyRow(ctx.db, id, hash, maxUsage, expiresAt, new Date().toISOString())) {
    throw notFound(NOT_FOUND);
  }
  const rotated = enrollmentKeyById(ctx.db, id)!;
  audit(ctx, req, auth, 'enrollment_key.rotate', rotated, {
    changedFields: (['maxUsage', 'expiresAt'] as const).filter((f) => body[f] !== undefined),
    maxUsage: rotated.max_usage,
    expiresAt: rotated.expires_at,
    previousUsageCount: row.usage_count,
  });
  return { ...toEnrollmentKey(rotated), key };
}

export function deleteEnrollmentKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  id: string,
): { success: true } {
  const row = keyInScope(ctx, auth, id);
  if (!deleteEnrollmentKeyRow(ctx.db, id)) throw notFound(NOT_FOUND);
  audit(ctx, req, auth, 'enrollment_key.delete', row, {
    siteId: row.site_id,
    usageCount: row.usage_count,
    maxUsage: row.max_usage,
  });
  return { success: true };
}

export type EnrollmentRefusal =
  'enrollment_key_not_found' | 'enrollment_key_expired' | 'enrollment_key_exhausted';

export type RedeemResult =
  | { ok: true; key: { id: string; orgId: string; siteId: string | null } }
  | { ok: false; reason: EnrollmentRefusal };

/**
 * Agent enrollment (DESIGN §3): checks a raw key and, only when it is valid, counts one use, in one UPDATE so
 * concurrent enrollments can never push usageCount past maxUsage. Call it inside the enrollment's transaction:
 * if a later step refuses the agent (device cap, bad secret), the rollback gives the use back.
 */
export function redeemEnrollmentKey(
  ctx: Pick<AppContext, 'db' | 'enrollmentKeyPepper'>,
  rawKey: string,
  nowMs = Date.now(),
): RedeemResult {
  const hash = hashEnrollmentKey(ctx.enrollmentKeyPepper, rawKey);
  const redeemed = redeemEnrollmentKeyRow(ctx.db, hash, new Date(nowMs).toISOString());
  if (redeemed) {
    return { ok: true, key: { id: redeemed.id, orgId: redeemed.org_id, siteId: redeemed.site_id } };
  }
  const row = probeEnrollmentKey(ctx.db, hash);
  if (!row || row.org_deleted_at) return { ok: false, reason: 'enrollment_key_not_found' };
  if (Date.parse(row.expires_at) <= nowMs) return { ok: false, reason: 'enrollment_key_expired' };
  return { ok: false, reason: 'enrollment_key_exhausted' };
}

/**
 * The live key a raw value names, without counting a use (re-enrollment of an install that already holds one,
 * DESIGN §3): null for an unknown or expired key or one of a deleted organization, whatever its use count.
 */
export function findLiveEnrollmentKey(
  ctx: Pick<AppContext, 'db' | 'enrollmentKeyPepper'>,
  rawKey: string,
  nowMs = Date.now(),
): { id: string; orgId: string; siteId: string | null } | null {
  const hash = hashEnrollmentKey(ctx.enrollmentKeyPepper, rawKey);
  const row = liveEnrollmentKeyRow(ctx.db, hash, new Date(nowMs).toISOString());
  return row ? { id: row.id, orgId: row.org_id, siteId: row.site_id } : null;
}
