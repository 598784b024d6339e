// Single sign-on (spec 1 "SSO provider", "SSO provider status", "SSO (`/sso`)", `POST /auth/sso-discovery`,
// Authentication rules 10-16). Field names are the spec's. The console builds its screens from these types; the
// server validates requests with the zod schemas in server/modules/sso/schemas.ts.

export type SsoProviderType = 'oidc' | 'saml';
export type SsoOwnerScope = 'organization' | 'partner';
/** Spec 1 "SSO provider status": new providers start `inactive`; only `active` ones are used for sign-in. */
export type SsoProviderStatus = 'inactive' | 'testing' | 'active';

/** Claim names the IdP uses for each user attribute (values are IdP claim names). */
export interface SsoAttributeMapping {
  email: string;
  name: string;
  firstName?: string;
  lastName?: string;
  groups?: string;
}

/** `GET /sso/presets`: four OIDC products and five SAML products (SAML is listed, not offered for sign-in). */
export interface SsoPreset {
  id: string;
  name: string;
  type: SsoProviderType;
  /** Space-separated scopes the preset fills in (OIDC only; null for SAML). */
  scopes: string | null;
  attributeMapping: SsoAttributeMapping;
  /** An example issuer with the part the administrator replaces in angle brackets, when the product has one. */
  issuerTemplate: string | null;
  /** False for SAML: only OIDC sign-in works end to end (spec 1 SSO provider `type`). */
  loginSupported: boolean;
}

export interface SsoPresetsResponse {
  data: SsoPreset[];
}

/** A provider as every endpoint answers it. The client secret is write-only: `hasClientSecret` says if one is set. */
export interface SsoProvider {
  id: string;
  ownerScope: SsoOwnerScope;
  /** The owning organization; null for partner providers. */
  orgId: string | null;
  /** The owning partner (for organization providers: the organization's partner). */
  partnerId: string;
  name: string;
  type: SsoProviderType;
  preset: string | null;
  issuer: string | null;
  clientId: string | null;
  hasClientSecret: boolean;
  scopes: string;
  attributeMapping: SsoAttributeMapping;
  autoProvision: boolean;
  defaultRoleId: string | null;
  /** Comma-separated email domains; empty means every domain. */
  allowedDomains: string;
  enforceSSO: boolean;
  trustsIdpMfa: boolean;
  status: SsoProviderStatus;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  userInfoUrl: string | null;
  jwksUrl: string | null;
  /** What the administrator pastes into the IdP as the redirect (reply) URI. */
  redirectUri: string;
  createdAt: string;
  updatedAt: string;
}

export interface SsoProviderListResponse {
  data: SsoProvider[];
}

/** `POST /sso/providers` and `PATCH` answer the provider, with a warning when discovery failed at create. */
export interface SsoProviderWriteResponse extends SsoProvider {
  /** Set when the issuer's discovery failed at create (spec rule 12: the provider is still created). */
  warning?: string;
}

/** `POST /sso/providers/:id/test`: whether discovery is reachable and every discovered endpoint is safe. */
export interface SsoTestResponse {
  success: boolean;
  /** Why not, in words an administrator can act on. */
  message: string;
  /** The endpoints discovery found (null when it failed). */
  endpoints: {
    authorizationUrl: string;
    tokenUrl: string;
    userInfoUrl: string | null;
    jwksUrl: string | null;
  } | null;
}

/** `GET /sso/check/:orgId` (public): the organization's sign-in provider, if one is active. */
export interface SsoCheckResponse {
  enabled: boolean;
  providerName: string | null;
  type: SsoProviderType | null;
  enforceSSO: boolean;
}

/**
 * `POST /auth/sso-discovery` (public): keyed on the email's domain only (rule 14). `GET /sso/partner-sign-in?slug=`
 * (public, beyond the spec's 13 endpoints) answers the same shape for a partner's sign-in page (rule 15).
 */
export interface SsoDiscoveryResponse {
  sso: { providerName: string; loginUrl: string; enforceSSO: boolean } | null;
}

/**
 * `/login?error=<code>` after a failed callback. The first six are the spec's; `email_not_verified` (rule 12: the
 * IdP says the email is unverified, or it is absent and the domain is not DNS-verified) and `sso_failed` (the IdP
 * refused, or its answer failed a check: issuer, audience, expiry, nonce, signature) are Gatehouse's.
 */
export const SSO_LOGIN_ERRORS = [
  'session_expired',
  'provider_not_found',
  'domain_not_allowed',
  'user_not_found',
  'default_role_required',
  'no_org_access',
  'email_not_verified',
  'sso_failed',
] as const;
export type SsoLoginError = (typeof SSO_LOGIN_ERRORS)[number];

/**
 * An email domain an organization proves it owns with a DNS TXT record (rule 12 and 14). Beyond the spec's 13
 * endpoints: `GET/POST /sso/domains`, `POST /sso/domains/:id/verify`, `DELETE /sso/domains/:id`.
 */
export interface SsoDomain {
  id: string;
  orgId: string;
  domain: string;
  /** Publish a TXT record named `txtName` with the value `txtValue`, then verify. */
  txtName: string;
  txtValue: string;
  verifiedAt: string | null;
  createdAt: string;
}

export interface SsoDomainListResponse {
  data: SsoDomain[];
}

/**
 * `GET /sso/providers/:id/enforcement-preview` (beyond the spec's 13 endpoints): who would lose password sign-in if
 * this provider were active with enforceSSO, the warning the console shows before enforcement is switched on. The
 * first 200 by email, with the total.
 */
export interface SsoEnforcementPreview {
  total: number;
  users: Array<{ id: string; email: string; name: string }>;
}
