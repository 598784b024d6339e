import type {
  SsoAttributeMapping,
  SsoDomain,
  SsoDomainListResponse,
  SsoEnforcementPreview,
  SsoPresetsResponse,
  SsoProvider,
  SsoProviderListResponse,
  SsoProviderStatus,
  SsoProviderWriteResponse,
  SsoTestResponse,
} from '../sso';
import type { Endpoint } from './endpoint';

// /sso administration (spec 1 "SSO (`/sso`)" and Gatehouse's /sso/domains). The sign-in page's own /sso calls
// (partner sign-in button, code exchange) are in auth.ts.

/** Whose providers, or whose roles: one organization or one partner. */
export interface SsoOwnerQuery {
  orgId?: string;
  partnerId?: string;
}

/** The provider fields the console edits (spec 1 "SSO provider"); the secret only when it is being replaced. */
export interface ProviderFieldsBody {
  name: string;
  preset?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: string;
  attributeMapping?: SsoAttributeMapping;
  autoProvision?: boolean;
  defaultRoleId?: string;
  allowedDomains?: string;
  trustsIdpMfa?: boolean;
}

export type CreateProviderBody = ProviderFieldsBody & {
  type: 'oidc';
  ownerScope: 'organization' | 'partner';
  orgId?: string;
  partnerId?: string;
};

export type UpdateProviderBody = Partial<Omit<ProviderFieldsBody, 'defaultRoleId'>> & {
  defaultRoleId?: string | null;
  enforceSSO?: boolean;
};

export interface SsoEndpoints {
  'GET /sso/presets': Endpoint<SsoPresetsResponse>;
  'GET /sso/providers': Endpoint<SsoProviderListResponse, undefined, SsoOwnerQuery>;
  'POST /sso/providers': Endpoint<SsoProviderWriteResponse, CreateProviderBody>;
  'PATCH /sso/providers/:id': Endpoint<SsoProviderWriteResponse, UpdateProviderBody>;
  'DELETE /sso/providers/:id': Endpoint<{ success: true }>;
  'POST /sso/providers/:id/status': Endpoint<SsoProvider, { status: SsoProviderStatus }>;
  'POST /sso/providers/:id/test': Endpoint<SsoTestResponse>;
  'GET /sso/providers/:id/enforcement-preview': Endpoint<SsoEnforcementPreview>;
  'GET /sso/domains': Endpoint<SsoDomainListResponse, undefined, { orgId: string }>;
  'POST /sso/domains': Endpoint<SsoDomain, { orgId: string; domain: string }>;
  'POST /sso/domains/:id/verify': Endpoint<SsoDomain>;
  'DELETE /sso/domains/:id': Endpoint<{ success: true }>;
  /** The roles an owner's users may hold: the choices of a provider's default role. */
}
