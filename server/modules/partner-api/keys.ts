import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { PartnerKey, PartnerKeyCreated, PartnerKeyScope } from '../../contract/partner-api';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { badRequest, notFound } from '../../http/errors';
import { generatePrefixedKey } from '../api-keys';
import { auditCaller } from '../audit';
import { administeredPartner } from '../imports';
import { PARTNER_KEY_PREFIX } from './authenticate';
import type { CreatePartnerKeyBody } from './schemas';
import {
  insertPartnerKey,
  partnerKeyById,
  partnerKeysOf,
  revokePartnerKeyRow,
  rotatePartnerKeyRow,
  type PartnerKeyRow,
} from './store';

// /partner-keys: a partner administrator (MFA session, full organization access) mints, lists, rotates and
// revokes the keys of the partner's service principal. The raw key is in the create and rotate answers only;
// storage keeps its SHA-256 hash. Another partner's key is answered exactly like a missing one.

const NOT_FOUND = 'Partner key not found';
/** Without `rateLimit` a key gets the partner interface's cap. */
const DEFAULT_RATE_LIMIT = 120;

export function toPartnerKey(row: PartnerKeyRow, nowMs = Date.now()): PartnerKey {
  const expired = row.expires_at !== null && Date.parse(row.expires_at) <= nowMs;
  return {
    id: row.id,
    partnerId: row.partner_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    scopes: JSON.parse(row.scopes) as PartnerKeyScope[],
    rateLimit: row.rate_limit,
    expiresAt: row.expires_at,
    status: row.status === 'revoked' ? 'revoked' : expired ? 'expired' : 'active',
    lastUsedAt: row.last_used_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

function audit(ctx: AppContext, req: Request, auth: UserAuth, action: string, row: PartnerKeyRow): void {
  auditCaller(ctx, req, auth, {
    orgId: null,
    partnerId: row.partner_id,
    action,
    resourceType: 'partner_key',
    resourceId: row.id,
    resourceName: row.name,
    details: {
      keyPrefix: row.key_prefix,
      scopes: JSON.parse(row.scopes) as unknown,
      rateLimit: row.rate_limit,
    },
  });
}

export function createPartnerKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: CreatePartnerKeyBody,
): PartnerKeyCreated {
  const partnerId = administeredPartner(ctx.db, auth);
  const { key, hash, prefix } = generatePrefixedKey(PARTNER_KEY_PREFIX);
  const id = randomUUID();
  const at = new Date().toISOString();
  insertPartnerKey(ctx.db, {
    id,
    partner_id: partnerId,
    name: body.name,
    key_hash: hash,
    key_prefix: prefix,
    scopes: JSON.stringify(body.scopes),
    rate_limit: body.rateLimit ?? DEFAULT_RATE_LIMIT,
    expires_at: body.expiresAt ?? null,
    created_by: auth.userId,
    created_at: at,
    updated_at: at,
  });
  const row = partnerKeyById(ctx.db, partnerId, id)!;
  audit(ctx, req, auth, 'partner_key.create', row);
  return { ...toPartnerKey(row), key };
}

export function listPartnerKeys(ctx: AppContext, auth: UserAuth): { data: PartnerKey[] } {
  const partnerId = administeredPartner(ctx.db, auth);
  const now = Date.now();
  return { data: partnerKeysOf(ctx.db, partnerId).map((r) => toPartnerKey(r, now)) };
}

function ownKey(ctx: AppContext, auth: UserAuth, id: string): PartnerKeyRow {
  const row = partnerKeyById(ctx.db, administeredPartner(ctx.db, auth), id);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

export function rotatePartnerKey(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  id: string,
): PartnerKeyCreated {
  const row = ownKey(ctx, auth, id);
  const { key, hash, prefix } = generatePrefixedKey(PARTNER_KEY_PREFIX);
  if (!rotatePartnerKeyRow(ctx.db, id, hash, prefix, new Date().toISOString()))
    throw badRequest('Cannot rotate a revoked partner key');
  const rotated = partnerKeyById(ctx.db, row.partner_id, id)!;
  audit(ctx, req, auth, 'partner_key.rotate', rotated);
  return { ...toPartnerKey(rotated), key };
}

export function revokePartnerKey(ctx: AppContext, req: Request, auth: UserAuth, id: string): PartnerKey {
  const row = ownKey(ctx, auth, id);
  if (revokePartnerKeyRow(ctx.db, id, new Date().toISOString()))
    audit(ctx, req, auth, 'partner_key.revoke', row);
  return toPartnerKey(partnerKeyById(ctx.db, row.partner_id, id)!);
}
