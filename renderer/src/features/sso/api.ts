import type {
  RoleListResponse,
  SsoDomain,
  SsoDomainListResponse,
  SsoEnforcementPreview,
  SsoPresetsResponse,
  SsoProvider,
  SsoProviderListResponse,
  SsoProviderStatus,
  SsoProviderWriteResponse,
  SsoTestResponse,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';
import type { CreateProviderBody, SsoOwner, UpdateProviderBody } from './model';

// The /sso administration endpoints (spec 1 "SSO (`/sso`)" and Gatehouse's /sso/domains), typed by the contract,
// and their cached reads. Every key starts with 'sso' so one invalidation after a write refreshes the screen.

const providerPath = (id: string) => `/sso/providers/${encodeURIComponent(id)}`;
const domainPath = (id: string) => `/sso/domains/${encodeURIComponent(id)}`;
const ownerQuery = (owner: SsoOwner) =>
  owner.kind === 'organization' ? qs({ orgId: owner.id }) : qs({ partnerId: owner.id });

export const ssoApi = {
  presets: () => api<SsoPresetsResponse>('/sso/presets'),
  providers: (owner: SsoOwner) => api<SsoProviderListResponse>(`/sso/providers${ownerQuery(owner)}`),
  create: (body: CreateProviderBody) =>
    api<SsoProviderWriteResponse>('/sso/providers', { method: 'POST', body }),
  update: (id: string, body: UpdateProviderBody) =>
    api<SsoProviderWriteResponse>(providerPath(id), { method: 'PATCH', body }),
  remove: (id: string) => api<void>(providerPath(id), { method: 'DELETE' }),
  setStatus: (id: string, status: SsoProviderStatus) =>
    api<SsoProvider>(`${providerPath(id)}/status`, { method: 'POST', body: { status } }),
  test: (id: string) => api<SsoTestResponse>(`${providerPath(id)}/test`, { method: 'POST', body: {} }),
  enforcementPreview: (id: string) => api<SsoEnforcementPreview>(`${providerPath(id)}/enforcement-preview`),
  domains: (orgId: string) => api<SsoDomainListResponse>(`/sso/domains${qs({ orgId })}`),
  addDomain: (orgId: string, domain: string) =>
    api<SsoDomain>('/sso/domains', { method: 'POST', body: { orgId, domain } }),
  verifyDomain: (id: string) => api<SsoDomain>(`${domainPath(id)}/verify`, { method: 'POST', body: {} }),
  removeDomain: (id: string) => api<void>(domainPath(id), { method: 'DELETE' }),
  /** The roles the owner's users may hold: the choices of the default role. */
  roles: (owner: SsoOwner) =>
    api<RoleListResponse>(
      `/users/roles${owner.kind === 'organization' ? qs({ orgId: owner.id }) : qs({ partnerId: owner.id })}`,
    ),
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
