import type { AppContext } from '../../context';
import type { SsoAttributeMapping, SsoProvider } from '../../contract';
import type { ProviderRow } from './provider-store';
import { redirectUriOf } from './paths';

/** A provider as the API answers it: the client secret only as `hasClientSecret` (write-only, DESIGN §6). */
export function toProvider(ctx: AppContext, row: ProviderRow): SsoProvider {
  return {
    id: row.id,
    ownerScope: row.owner_scope,
    orgId: row.org_id,
    partnerId: row.partner_id,
    name: row.name,
    type: row.type,
    preset: row.preset,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.client_secret_sealed !== null,
    scopes: row.scopes,
    attributeMapping: JSON.parse(row.attribute_mapping) as SsoAttributeMapping,
    autoProvision: row.auto_provision === 1,
    defaultRoleId: row.default_role_id,
    allowedDomains: row.allowed_domains,
    enforceSSO: row.enforce_sso === 1,
    trustsIdpMfa: row.trusts_idp_mfa === 1,
    status: row.status,
    authorizationUrl: row.authorization_url,
    tokenUrl: row.token_url,
    userInfoUrl: row.userinfo_url,
    jwksUrl: row.jwks_url,
    redirectUri: redirectUriOf(ctx),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
