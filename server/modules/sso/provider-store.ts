import { statement, type Db } from '../../db/connection';
import type { SsoOwnerScope, SsoProviderStatus, SsoProviderType } from '../../contract';

// SQL of sso_providers. Reads that decide sign-in (the oldest active provider of an owner) are here too, so the
// ordering rule of spec 1 "SSO provider status" lives in one statement per owner kind.

export interface ProviderRow {
  id: string;
  owner_scope: SsoOwnerScope;
  org_id: string | null;
  partner_id: string;
  name: string;
  type: SsoProviderType;
  preset: string | null;
  issuer: string | null;
  client_id: string | null;
  client_secret_sealed: string | null;
  scopes: string;
  attribute_mapping: string;
  auto_provision: 0 | 1;
  default_role_id: string | null;
  default_role_set_by: string | null;
  allowed_domains: string;
  enforce_sso: 0 | 1;
  trusts_idp_mfa: 0 | 1;
  status: SsoProviderStatus;
  authorization_url: string | null;
  token_url: string | null;
  userinfo_url: string | null;
  jwks_url: string | null;
  generation: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Columns a write may set (everything but id, owner, generation and timestamps). */
export type ProviderColumns = Omit<
  ProviderRow,
  'id' | 'owner_scope' | 'org_id' | 'partner_id' | 'generation' | 'created_by' | 'created_at' | 'updated_at'
>;

export function insertProvider(db: Db, row: ProviderRow): void {
  statement(
    db,
    `INSERT INTO sso_providers (id, owner_scope, org_id, partner_id, name, type, preset, issuer, client_id,
       client_secret_sealed, scopes, attribute_mapping, auto_provision, default_role_id, default_role_set_by,
       allowed_domains, enforce_sso, trusts_idp_mfa, status, authorization_url, token_url, userinfo_url, jwks_url,
       generation, created_by, created_at, updated_at)
     VALUES (@id, @owner_scope, @org_id, @partner_id, @name, @type, @preset, @issuer, @client_id,
       @client_secret_sealed, @scopes, @attribute_mapping, @auto_provision, @default_role_id, @default_role_set_by,
       @allowed_domains, @enforce_sso, @trusts_idp_mfa, @status, @authorization_url, @token_url, @userinfo_url,
       @jwks_url, @generation, @created_by, @created_at, @updated_at)`,
  ).run(row);
}

export function providerById(db: Db, id: string): ProviderRow | undefined {
  return statement(db, 'SELECT * FROM sso_providers WHERE id = ?').get(id) as ProviderRow | undefined;
}

/** Providers of one organization, or of one partner (its own, not its organizations'), oldest first. */
export function providersOf(db: Db, owner: { orgId: string } | { partnerId: string }): ProviderRow[] {
  if ('orgId' in owner)
    return statement(db, 'SELECT * FROM sso_providers WHERE org_id = ? ORDER BY created_at, id').all(
      owner.orgId,
    ) as ProviderRow[];
  return statement(
    db,
    `SELECT * FROM sso_providers WHERE partner_id = ? AND owner_scope = 'partner' ORDER BY created_at, id`,
  ).all(owner.partnerId) as ProviderRow[];
}

/** Every provider the given organizations and partners own (a caller's view), oldest first. */
export function providersOwnedBy(
  db: Db,
  orgIds: readonly string[],
  partnerIds: readonly string[],
): ProviderRow[] {
  return statement(
    db,
    `SELECT * FROM sso_providers
      WHERE org_id IN (SELECT value FROM json_each(?))
         OR (owner_scope = 'partner' AND partner_id IN (SELECT value FROM json_each(?)))
      ORDER BY created_at, id`,
  ).all(JSON.stringify(orgIds), JSON.stringify(partnerIds)) as ProviderRow[];
}

/**
 * Spec 1: the oldest active provider (by creation time) of an organization or a partner signs its users in. A
 * soft-deleted owner has none.
 */
export function activeProviderOf(
  db: Db,
  owner: { orgId: string } | { partnerId: string },
): ProviderRow | undefined {
  if ('orgId' in owner)
    return statement(
      db,
      `SELECT p.* FROM sso_providers p JOIN organizations o ON o.id = p.org_id
        WHERE p.org_id = ? AND p.status = 'active' AND o.deleted_at IS NULL ORDER BY p.created_at, p.id LIMIT 1`,
    ).get(owner.orgId) as ProviderRow | undefined;
  return statement(
    db,
    `SELECT p.* FROM sso_providers p JOIN partners pa ON pa.id = p.partner_id
      WHERE p.partner_id = ? AND p.owner_scope = 'partner' AND p.status = 'active' AND pa.deleted_at IS NULL
      ORDER BY p.created_at, p.id LIMIT 1`,
  ).get(owner.partnerId) as ProviderRow | undefined;
}

/** Writes the given columns; `bumpGeneration` ends the sign-ins in flight (see the migration). */
export function updateProvider(
  db: Db,
  id: string,
  columns: Partial<ProviderColumns>,
  bumpGeneration: boolean,
  at: string,
): void {
  const names = Object.keys(columns).filter((k) => (columns as Record<string, unknown>)[k] !== undefined);
  // Column names come from ProviderColumns' keys (fixed text), never from request data.
  const sets = [...names.map((n) => `${n} = @${n}`), 'updated_at = @updated_at'];
  if (bumpGeneration) sets.push('generation = generation + 1');
  statement(db, `UPDATE sso_providers SET ${sets.join(', ')} WHERE id = @id`).run({
    ...Object.fromEntries(names.map((n) => [n, (columns as Record<string, unknown>)[n]])),
    updated_at: at,
    id,
  });
}

/** Deletes the provider; its identity links, sign-ins in flight and exchange codes go with it (ON DELETE CASCADE). */
export function deleteProvider(db: Db, id: string): void {
  statement(db, 'DELETE FROM sso_providers WHERE id = ?').run(id);
}

/** Every provider, oldest first (platform administrators' unfiltered list; providers are few per tenant). */
export function allProviderRows(db: Db): ProviderRow[] {
  return statement(db, 'SELECT * FROM sso_providers ORDER BY created_at, id').all() as ProviderRow[];
}
