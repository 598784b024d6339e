import type {
  CreateProviderBody,
  RoleListResponse,
  SsoDomainListResponse,
  SsoEnforcementPreview,
  SsoOwnerQuery,
  SsoPresetsResponse,
  SsoProviderListResponse,
  SsoProviderStatus,
  UpdateProviderBody,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';
import type { SsoOwner } from './model';

// The /sso administration endpoints (spec 1 "SSO (`/sso`)" and Gatehouse's /sso/domains), typed by the contract,
// and their cached reads. Every key starts with 'sso' so one invalidation after a write refreshes the screen.

const ownerQuery = (owner: SsoOwner): SsoOwnerQuery =>
  owner.kind === 'organization' ? { orgId: owner.id } : { partnerId: owner.id };

export const ssoApi = {
  presets: () => call('GET /sso/presets'),
  providers: (owner: SsoOwner) => call('GET /sso/providers', { query: ownerQuery(owner) }),
  create: (body: CreateProviderBody) => call('POST /sso/providers', { body }),
  update: (id: string, body: UpdateProviderBody) =>
    call('PATCH /sso/providers/:id', { params: { id }, body }),
  remove: (id: string) => call('DELETE /sso/providers/:id', { params: { id } }),
  setStatus: (id: string, status: SsoProviderStatus) =>
    call('POST /sso/providers/:id/status', { params: { id }, body: { status } }),
  test: (id: string) => call('POST /sso/providers/:id/test', { params: { id } }),
  enforcementPreview: (id: string) => call('GET /sso/providers/:id/enforcement-preview', { params: { id } }),
  domains: (orgId: string) => call('GET /sso/domains', { query: { orgId } }),
  addDomain: (orgId: string, domain: string) => call('POST /sso/domains', { body: { orgId, domain } }),
  verifyDomain: (id: string) => call('POST /sso/domains/:id/verify', { params: { id } }),
  removeDomain: (id: string) => call('DELETE /sso/domains/:id', { params: { id } }),
  /** The roles the owner's users may hold: the choices of the default role. */
  roles: (owner: SsoOwner) => call('GET /users/roles', { query: ownerQuery(owner) }),
};

export const ssoKeys = {
  all: ['sso'] as const,
  presets: ['sso', 'presets'] as const,
  providers: (owner: SsoOwner) => ['sso', 'providers', owner.kind, owner.id] as const,
  domains: (orgId: string) => ['sso', 'domains', orgId] as const,
  roles: (owner: SsoOwner) => ['sso', 'roles', owner.kind, owner.id] as const,
  preview: (id: string) => ['sso', 'preview', id] as const,
};

export const usePresets = (): QueryState<SsoPresetsResponse> => useApiQuery(ssoKeys.presets, ssoApi.presets);

export const useProviders = (owner: SsoOwner | null): QueryState<SsoProviderListResponse> =>
  useApiQuery(owner ? ssoKeys.providers(owner) : null, () =>
    owner ? ssoApi.providers(owner) : Promise.resolve({ data: [] }),
  );

/** Domains are proven per organization; a partner owner has none (null key: no request). */
export const useDomains = (orgId: string | null): QueryState<SsoDomainListResponse> =>
  useApiQuery(orgId ? ssoKeys.domains(orgId) : null, () =>
    orgId ? ssoApi.domains(orgId) : Promise.resolve({ data: [] }),
  );

export const useOwnerRoles = (owner: SsoOwner): QueryState<RoleListResponse> =>
  useApiQuery(ssoKeys.roles(owner), () => ssoApi.roles(owner));

export const useEnforcementPreview = (id: string | null): QueryState<SsoEnforcementPreview> =>
  useApiQuery(id ? ssoKeys.preview(id) : null, () =>
    id ? ssoApi.enforcementPreview(id) : Promise.resolve({ total: 0, users: [] }),
  );
