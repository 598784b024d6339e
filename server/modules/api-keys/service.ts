import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { ApiKey, ApiKeyCreated, ApiKeyRotated } from '../../contract/keys';
import { randomToken, sha256Hex } from '../../crypto';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { paginated } from '../../http/pagination';
import { grantsPermission, type Permission } from '../../http/permissions';
import { requireOrgAccess, resolveOrgScope, scopeCovers } from '../../http/scope';
import { auditCaller } from '../audit';
import { callerPermissions } from '../roles';
import { API_KEY_PREFIX } from './authenticate';
import type { createApiKeyBody, listApiKeysQuery, updateApiKeyBody } from './schemas';
import {
  apiKeyById,
  effectiveStatus,
  insertApiKey,
  listApiKeyRows,
  markApiKeyExpired,
  revokeApiKeyRow,
  rotateApiKeyRow,
  toApiKey,
  updateApiKeyRow,
  type ApiKeyRow,
} from './store';

// Rules of /api-keys (spec 1, API key and its state table). Keys belong to one organization; a caller manages
// the keys of the organizations its scope covers, and a key outside that scope is answered exactly like a key
// that does not exist.

export const API_KEY_WARNING = 'This key is shown only once. Store it securely.';
const NOT_FOUND = 'API key not found';
const NOT_ACTIVE = 'Cannot update revoked API key';
/** Characters of the secret part kept in plain beside the prefix for recognition in lists (`svc_` + 8). */
const PREFIX_SECRET_CHARS = 8;

/**
 * A prefix + 32 base64url characters (24 random bytes encode to exactly 32 without padding), stored only as its
 * SHA-256 hash, with the prefix and 8 characters of the secret kept for recognition in lists. Organization API
 * keys use `svc_`; partner provisioning keys (partner-api module) `psk_`.
 */
export function generatePrefixedKey(keyPrefix: string): { key: string; hash: string; prefix: string } {
  const key = `${keyPrefix}${randomToken(24)}`;
  return { key, hash: sha256Hex(key), prefix: key.slice(0, keyPrefix.length + PREFIX_SECRET_CHARS) };
}

export const generateApiKey = () => generatePrefixedKey(API_KEY_PREFIX);

function audit(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  action: string,
  row: Pick<ApiKeyRow, 'id' | 'org_id' | 'name'>,
  details: Record<string, unknown>,
): void {
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action,
    resourceType: 'api_key',
    resourceId: row.id,
    resourceName: row.name,
    details,
  });
}

/** The key, if it exists and the caller's scope covers its organization; otherwise 404. */
function keyInScope(ctx: AppContext, auth: UserAuth, id: string): ApiKeyRow {
  const row = apiKeyById(ctx.db, id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(NOT_FOUND);
  return row;
}

/**
 * Revoked and expired keys cannot be changed. A key whose expiry passed while nobody used it is expired too:
 * its status is written now, the same transition an authentication attempt would make.
 */
function requireActive(ctx: AppContext, row: ApiKeyRow, at: string): void {
  const status = effectiveStatus(row, Date.parse(at));
  if (status === 'active') return;
  if (row.status === 'active') markApiKeyExpired(ctx.db, row.id, at);
  throw badRequest(NOT_ACTIVE);
}

export function listApiKeys(ctx: AppContext, auth: UserAuth, query: z.infer<typeof listApiKeysQuery>) {
  // A named organization outside the scope is refused the way every organization lookup is (404 or 403).
  if (query.orgId) requireOrgAccess(ctx.db, auth, query.orgId);
  const now = Date.now();
  const { rows, total } = listApiKeyRows(
    ctx.db,
    resolveOrgScope(ctx.db, auth),
    { orgId: query.orgId, status: query.status },
    query,
  );
  return paginated(
    rows.map((r) => toApiKey(r, now)),
    query,
    total,
  );
}

export function getApiKey(ctx: AppContext, auth: UserAuth, id: string): ApiKey {
  return toApiKey(keyInScope(ctx, auth, id));
}

/**
 * A key acts with its scopes alone, so it may not carry a scope its creator does not hold (`*` needs full
 * administration); otherwise any key writer could mint a credential stronger than themselves.
 */
function assertScopesHeld(ctx: AppContext, auth: UserAuth, scopes: readonly string[]): void {
  const held = callerPermissions(ctx, auth);
  const missing = scopes.filter((s) => !grantsPermission(held, (s === '*' ? '*:*' : s) as Permission));
  if (missing.length > 0) {
    throw forbidden('Cannot grant permissions you do not hold', 'PERMISSION_ESCALATION', { missing });
  }
}

export function createApiKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: z.infer<typeof createApiKeyBody>,
): ApiKeyCreated {
  requireOrgAccess(ctx.db, auth, body.orgId);
  assertScopesHeld(ctx, auth, body.scopes);
  const { key, hash, prefix } = generateApiKey();
  const id = randomUUID();
  const at = new Date().toISOString();
  insertApiKey(ctx.db, {
    id,
    orgId: body.orgId,
    name: body.name,
    keyHash: hash,
    keyPrefix: prefix,
    scopes: body.scopes,
    expiresAt: body.expiresAt ?? null,
    rateLimit: body.rateLimit,
    createdBy: auth.userId,
    at,
  });
  const row = apiKeyById(ctx.db, id)!;
  audit(ctx, req, auth, 'api_key.create', row, {
    keyPrefix: prefix,
    scopes: body.scopes,
    rateLimit: body.rateLimit,
    expiresAt: row.expires_at,
  });
  return { ...toApiKey(row), key, warning: API_KEY_WARNING };
}

export function updateApiKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  id: string,
  body: z.infer<typeof updateApiKeyBody>,
): ApiKey {
  const row = keyInScope(ctx, auth, id);
  const changedFields = (['name', 'scopes', 'rateLimit'] as const).filter((f) => body[f] !== undefined);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  const at = new Date().toISOString();
  requireActive(ctx, row, at);
  if (body.scopes) assertScopesHeld(ctx, auth, body.scopes);
  if (!updateApiKeyRow(ctx.db, id, body, at)) throw badRequest(NOT_ACTIVE);
  const updated = apiKeyById(ctx.db, id)!;
  audit(ctx, req, auth, 'api_key.update', updated, {
    changedFields,
    ...(body.name !== undefined ? { previousName: row.name } : {}),
    ...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
    ...(body.rateLimit !== undefined ? { rateLimit: body.rateLimit } : {}),
  });
  return toApiKey(updated);
}

export function rotateApiKey(ctx: AppContext, req: Request, auth: UserAuth, id: string): ApiKeyRotated {
  const row = keyInScope(ctx, auth, id);
  const at = new Date().toISOString();
  requireActive(ctx, row, at);
  const { key, hash, prefix } = generateApiKey();
  if (!rotateApiKeyRow(ctx.db, id, hash, prefix, at)) throw badRequest(NOT_ACTIVE);
  // Uses of the old key counted in memory but not yet written would otherwise land on the fresh statistics.
  ctx.apiKeys.discardPending(id);
  const rotated = apiKeyById(ctx.db, id)!;
  audit(ctx, req, auth, 'api_key.rotate', rotated, {
    keyPrefix: prefix,
    previousKeyPrefix: row.key_prefix,
  });
  return { ...toApiKey(rotated), key };
}

/** Revocation is permanent and idempotent: revoking a revoked key changes nothing and records nothing. */
export function revokeApiKey(ctx: AppContext, req: Request, auth: UserAuth, id: string): { success: true } {
  const row = keyInScope(ctx, auth, id);
  if (row.status === 'revoked') return { success: true };
  const at = new Date().toISOString();
  if (revokeApiKeyRow(ctx.db, id, 'revoked_by_user', at)) {
    audit(ctx, req, auth, 'api_key.revoke', row, { keyPrefix: row.key_prefix, previousStatus: row.status });
  }
  return { success: true };
}

/** `GET /api-keys/current`: the calling key describes itself (never its hash). */
export function currentApiKey(ctx: AppContext, apiKeyId: string): ApiKey {
  const row = apiKeyById(ctx.db, apiKeyId);
  // The key authenticated a moment ago; only a concurrent hard delete (there is none today) could remove it.
  if (!row) throw notFound(NOT_FOUND);
  return toApiKey(row);
}
