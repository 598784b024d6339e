import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type {
  SsoEnforcementPreview,
  SsoProvider,
  SsoProviderListResponse,
  SsoProviderStatus,
  SsoProviderWriteResponse,
  SsoTestResponse,
} from '../../contract';
import { transaction } from '../../db/after-commit';
import type { UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { effectivePermissions } from '../../http/permissions';
import { resolveOrgScope } from '../../http/scope';
import { auditCaller } from '../audit';
import { assertCovered, assignableRole } from '../roles';
import type { Tenant } from '../users';
import { canSee, ownerOf, requireVisible, requireWritableOwner } from './access';
import { passwordUsersOf } from './governance-store';
import { discoverClient, DiscoveryError, type DiscoveredEndpoints } from './oidc';
import { DEFAULT_MAPPING, DEFAULT_SCOPES, presetById } from './presets';
import {
  deleteProvider,
  insertProvider,
  allProviderRows,
  providerById,
  providersOf,
  providersOwnedBy,
  updateProvider,
  type ProviderColumns,
  type ProviderRow,
} from './provider-store';
import type { SsoRuntime } from './runtime';
import type { CreateProviderBody, UpdateProviderBody } from './schemas';
import { toProvider } from './view';

// Provider administration (spec 1 "SSO provider", "SSO provider status", /sso endpoints). Writes are audited as
// sso.provider.create / update / delete with the names of the changed fields, never the client secret.

export const SAML_UNSUPPORTED = 'Only OIDC providers are supported: SAML sign-in is not offered';
const ROLE_REQUIRED = 'defaultRoleId is required when autoProvision is true';
const PARTNER_PROVISIONING =
  'Partner providers sign in existing technicians only: autoProvision must be false (invite new technicians)';

function auditProvider(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  row: Pick<ProviderRow, 'id' | 'name' | 'org_id' | 'partner_id'>,
  action: string,
  details: Record<string, unknown>,
): void {
  auditCaller(rt.ctx, req, auth, {
    orgId: row.org_id,
    partnerId: row.org_id ? null : row.partner_id,
    action,
    resourceType: 'sso_provider',
    resourceId: row.id,
    resourceName: row.name,
    details,
  });
}

/** The default role of auto-provisioned users: one the owner may hold and the caller may grant (rule 12). */
function checkDefaultRole(rt: SsoRuntime, auth: UserAuth, tenant: Tenant, roleId: string): void {
  const role = assignableRole(rt.ctx, roleId, tenant);
  assertCovered(rt.ctx, auth, effectivePermissions(rt.ctx.db, role.id));
}

/** Fresh discovery of an issuer: its endpoints, or the reason it failed (in words for the administrator). */
async function tryDiscovery(
  rt: SsoRuntime,
  issuer: string,
  clientId: string,
): Promise<{ endpoints: DiscoveredEndpoints } | { problem: string }> {
  try {
    const { endpoints } = await discoverClient(rt, { issuer, clientId, clientSecret: null });
    return { endpoints };
  } catch (err) {
    if (err instanceof DiscoveryError) return { problem: err.message };
    throw err;
  }
}

const endpointColumns = (e: DiscoveredEndpoints) => ({
  authorization_url: e.authorizationUrl,
  token_url: e.tokenUrl,
  userinfo_url: e.userInfoUrl,
  jwks_url: e.jwksUrl,
});

export function listProviders(
  rt: SsoRuntime,
  auth: UserAuth,
  query: { orgId?: string | undefined; partnerId?: string | undefined },
): SsoProviderListResponse {
  const { db } = rt.ctx;
  let rows: ProviderRow[];
  if (query.orgId) rows = providersOf(db, { orgId: query.orgId });
  else if (query.partnerId) rows = providersOf(db, { partnerId: query.partnerId });
  else if (auth.scope === 'system') rows = allProviderRows(db);
  else {
    const scope = resolveOrgScope(db, auth);
    const orgIds = scope.kind === 'some' ? [...scope.orgIds] : [];
    rows = providersOwnedBy(db, orgIds, auth.scope === 'partner' && auth.partnerId ? [auth.partnerId] : []);
  }
  // One visibility rule for every path: a filter never widens what the caller may read.
  return { data: rows.filter((row) => canSee(rt.ctx, auth, row)).map((row) => toProvider(rt.ctx, row)) };
}

export function getProvider(rt: SsoRuntime, auth: UserAuth, id: string): SsoProvider {
  return toProvider(rt.ctx, requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id)));
}

/** The owner a create names: an organization (inferred for organization users) or a partner. */
function ownerOfCreate(auth: UserAuth, body: CreateProviderBody): { orgId: string } | { partnerId: string } {
  if (body.ownerScope === 'partner') {
    const partnerId = body.partnerId ?? auth.partnerId;
    if (!partnerId) throw badRequest('partnerId is required for system scope');
    return { partnerId };
  }
  const orgId = body.orgId ?? (auth.scope === 'organization' ? auth.orgId : null);
  if (!orgId) throw badRequest('orgId is required for partner and system scope');
  return { orgId };
}

export async function createProvider(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  body: CreateProviderBody,
): Promise<SsoProviderWriteResponse> {
  if (body.type === 'saml') throw badRequest(SAML_UNSUPPORTED, 'SSO_SAML_UNSUPPORTED');
  const tenant = requireWritableOwner(rt.ctx, auth, ownerOfCreate(auth, body));
  const preset = body.preset === undefined ? undefined : presetById(body.preset);
  if (body.preset !== undefined && (!preset || preset.type !== 'oidc'))
    throw badRequest('preset must be the id of an OIDC preset (GET /sso/presets)');
  const partnerOwned = tenant.scope === 'partner';
  const autoProvision = body.autoProvision ?? !partnerOwned;
  if (partnerOwned && autoProvision) throw badRequest(PARTNER_PROVISIONING);
  if (autoProvision && !body.defaultRoleId) throw badRequest(ROLE_REQUIRED);
  if (body.defaultRoleId) checkDefaultRole(rt, auth, tenant, body.defaultRoleId);

  // Rule 12: a failed discovery at create only warns; the provider is created and can be fixed and tested.
  const discovered = body.issuer && body.clientId ? await tryDiscovery(rt, body.issuer, body.clientId) : null;
  const at = new Date().toISOString();
  const row: ProviderRow = {
    id: randomUUID(),
    owner_scope: tenant.scope,
    org_id: tenant.scope === 'organization' ? tenant.orgId : null,
    partner_id: tenant.partnerId,
    name: body.name,
    type: 'oidc',
    preset: body.preset ?? null,
    issuer: body.issuer ?? null,
    client_id: body.clientId ?? null,
    client_secret_sealed: body.clientSecret ? rt.ctx.secretBox.seal(body.clientSecret) : null,
    scopes: body.scopes ?? preset?.scopes ?? DEFAULT_SCOPES,
    attribute_mapping: JSON.stringify(body.attributeMapping ?? preset?.attributeMapping ?? DEFAULT_MAPPING),
    auto_provision: autoProvision ? 1 : 0,
    default_role_id: body.defaultRoleId ?? null,
    default_role_set_by: body.defaultRoleId ? auth.userId : null,
    allowed_domains: body.allowedDomains ?? '',
    enforce_sso: body.enforceSSO ? 1 : 0,
    trusts_idp_mfa: body.trustsIdpMfa ? 1 : 0,
    status: 'inactive',
    authorization_url: null,
    token_url: null,
    userinfo_url: null,
    jwks_url: null,
    ...(discovered && 'endpoints' in discovered ? endpointColumns(discovered.endpoints) : {}),
    generation: 1,
    created_by: auth.userId,
    created_at: at,
    updated_at: at,
  };
  insertProvider(rt.ctx.db, row);
  const warning = discovered && 'problem' in discovered ? discovered.problem : undefined;
  if (warning)
    rt.ctx.log.warn({ providerId: row.id, issuer: row.issuer, warning }, 'SSO discovery failed at create');
  auditProvider(rt, req, auth, row, 'sso.provider.create', {
    ownerScope: row.owner_scope,
    type: row.type,
    preset: row.preset,
    issuer: row.issuer,
    ...(warning ? { warning } : {}),
  });
  return { ...toProvider(rt.ctx, row), ...(warning ? { warning } : {}) };
}

/** Changes that end sign-ins in flight (rule 12): who the IdP is, which client, which secret, which endpoints. */
const GENERATION_FIELDS: ReadonlySet<keyof UpdateProviderBody> = new Set([
  'issuer',
  'clientId',
  'clientSecret',
  'authorizationUrl',
  'tokenUrl',
  'userInfoUrl',
  'jwksUrl',
]);

export async function updateProviderFields(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  id: string,
  body: UpdateProviderBody,
): Promise<SsoProviderWriteResponse> {
  const row = requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id));
  const tenant = requireWritableOwner(rt.ctx, auth, ownerOf(row));
  const changed = (Object.keys(body) as Array<keyof UpdateProviderBody>).filter((k) => body[k] !== undefined);
  if (changed.length === 0) throw badRequest('No updates provided');
  if (body.preset) {
    const preset = presetById(body.preset);
    if (!preset || preset.type !== 'oidc')
      throw badRequest('preset must be the id of an OIDC preset (GET /sso/presets)');
  }
  const autoProvision = body.autoProvision ?? row.auto_provision === 1;
  const defaultRoleId = body.defaultRoleId === undefined ? row.default_role_id : body.defaultRoleId;
  if (row.owner_scope === 'partner' && autoProvision) throw badRequest(PARTNER_PROVISIONING);
  if (autoProvision && !defaultRoleId) throw badRequest(ROLE_REQUIRED);
  if (body.defaultRoleId) checkDefaultRole(rt, auth, tenant, body.defaultRoleId);

  const columns: Partial<ProviderColumns> = {
    name: body.name,
    preset: body.preset,
    client_id: body.clientId,
    scopes: body.scopes,
    attribute_mapping: body.attributeMapping && JSON.stringify(body.attributeMapping),
    auto_provision: body.autoProvision === undefined ? undefined : body.autoProvision ? 1 : 0,
    allowed_domains: body.allowedDomains,
    enforce_sso: body.enforceSSO === undefined ? undefined : body.enforceSSO ? 1 : 0,
    trusts_idp_mfa: body.trustsIdpMfa === undefined ? undefined : body.trustsIdpMfa ? 1 : 0,
    authorization_url: body.authorizationUrl,
    token_url: body.tokenUrl,
    userinfo_url: body.userInfoUrl,
    jwks_url: body.jwksUrl,
  };
  if (body.clientSecret !== undefined)
    columns.client_secret_sealed =
      body.clientSecret === null ? null : rt.ctx.secretBox.seal(body.clientSecret);
  if (body.defaultRoleId !== undefined) {
    columns.default_role_id = body.defaultRoleId;
    columns.default_role_set_by = body.defaultRoleId ? auth.userId : null;
  }
  // Rule 12: a new issuer needs a successful fresh discovery; its endpoints replace the old ones.
  if (body.issuer !== undefined && body.issuer !== row.issuer) {
    const clientId = body.clientId ?? row.client_id ?? 'gatehouse';
    const discovered = await tryDiscovery(rt, body.issuer, clientId);
    if ('problem' in discovered) throw badRequest(discovered.problem, 'SSO_DISCOVERY_FAILED');
    Object.assign(columns, { issuer: body.issuer, ...endpointColumns(discovered.endpoints) });
  }
  const bump = changed.some((k) => GENERATION_FIELDS.has(k));
  const at = new Date().toISOString();
  updateProvider(rt.ctx.db, row.id, columns, bump, at);
  auditProvider(rt, req, auth, row, 'sso.provider.update', { changedFields: changed });
  return toProvider(rt.ctx, providerById(rt.ctx.db, row.id)!);
}

export function setProviderStatus(
  rt: SsoRuntime,
  req: Request,
  auth: UserAuth,
  id: string,
  status: SsoProviderStatus,
): SsoProvider {
  const row = requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id));
  requireWritableOwner(rt.ctx, auth, ownerOf(row));
  if (status === 'active' && (!row.issuer || !row.client_id))
    throw badRequest('Set issuer and clientId before activating the provider');
  // Leaving `active` ends every sign-in in flight (rule 12: disabling invalidates them).
  const bump = row.status === 'active' && status !== 'active';
  updateProvider(rt.ctx.db, row.id, { status }, bump, new Date().toISOString());
  auditProvider(rt, req, auth, row, 'sso.provider.update', {
    changedFields: ['status'],
    status,
    previous: row.status,
  });
  return toProvider(rt.ctx, providerById(rt.ctx.db, row.id)!);
}

export function removeProvider(rt: SsoRuntime, req: Request, auth: UserAuth, id: string): { success: true } {
  const row = requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id));
  requireWritableOwner(rt.ctx, auth, ownerOf(row));
  transaction(rt.ctx.db, () => deleteProvider(rt.ctx.db, row.id));
  auditProvider(rt, req, auth, row, 'sso.provider.delete', { ownerScope: row.owner_scope, type: row.type });
  return { success: true };
}

/** Who would lose password sign-in under this provider's enforcement (the console's warning before enabling it). */
export function enforcementPreview(rt: SsoRuntime, auth: UserAuth, id: string): SsoEnforcementPreview {
  const row = requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id));
  return passwordUsersOf(rt.ctx.db, ownerOf(row), 200);
}

/** `POST /sso/providers/:id/test`: the discovery document is reachable now and every endpoint in it is safe. */
export async function testProvider(rt: SsoRuntime, auth: UserAuth, id: string): Promise<SsoTestResponse> {
  const row = requireVisible(rt.ctx, auth, providerById(rt.ctx.db, id));
  requireWritableOwner(rt.ctx, auth, ownerOf(row));
  if (!row.issuer) return { success: false, message: 'The provider has no issuer', endpoints: null };
  const discovered = await tryDiscovery(rt, row.issuer, row.client_id ?? 'gatehouse');
  if ('problem' in discovered) return { success: false, message: discovered.problem, endpoints: null };
  return { success: true, message: 'Discovery document reachable', endpoints: discovered.endpoints };
}
