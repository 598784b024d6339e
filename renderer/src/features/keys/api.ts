import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  ApiKey,
  ApiKeyCreated,
  EnrollmentKey,
  EnrollmentKeyCreated,
  Paginated,
  PartnerKey,
  PartnerKeyCreated,
  PartnerKeyScope,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { errorMessage } from '../../lib/errors';
import { qs } from '../../lib/forms';
import { queryClient } from '../../lib/query';

// The keys endpoints (spec 1: API keys; spec 3: enrollment keys), typed by the contract, and their cached lists.

export interface KeyListQuery {
  page: number;
  limit: number;
  orgId?: string;
  status?: string;
  expired?: 'true' | 'false';
}

export const keysApi = {
  apiKeys: (q: KeyListQuery) => api<Paginated<ApiKey>>(`/api-keys${qs({ ...q })}`),
  createApiKey: (body: {
    orgId: string;
    name: string;
    scopes: string[];
    rateLimit: number;
    expiresAt?: string;
  }) => api<ApiKeyCreated>('/api-keys', { method: 'POST', body }),
  updateApiKey: (id: string, changes: Record<string, unknown>) =>
    api<ApiKey>(`/api-keys/${id}`, { method: 'PATCH', body: changes }),
  rotateApiKey: (id: string) => api<ApiKeyCreated>(`/api-keys/${id}/rotate`, { method: 'POST', body: {} }),
  deleteApiKey: (id: string) => api<void>(`/api-keys/${id}`, { method: 'DELETE' }),

  enrollmentKeys: (q: KeyListQuery) => api<Paginated<EnrollmentKey>>(`/enrollment-keys${qs({ ...q })}`),
  createEnrollmentKey: (body: {
    orgId: string;
    siteId?: string;
    name: string;
    maxUsage: number | null;
    expiresAt: string | null;
  }) => api<EnrollmentKeyCreated>('/enrollment-keys', { method: 'POST', body }),
  rotateEnrollmentKey: (id: string, body: { maxUsage?: number | null; expiresAt?: string }) =>
    api<EnrollmentKeyCreated>(`/enrollment-keys/${id}/rotate`, { method: 'POST', body }),
  deleteEnrollmentKey: (id: string) => api<void>(`/enrollment-keys/${id}`, { method: 'DELETE' }),

  partnerKeys: () => api<{ data: PartnerKey[] }>('/partner-keys'),
  createPartnerKey: (body: {
    name: string;
    scopes: PartnerKeyScope[];
    rateLimit: number;
    expiresAt?: string;
  }) => api<PartnerKeyCreated>('/partner-keys', { method: 'POST', body }),
  rotatePartnerKey: (id: string) =>
    api<PartnerKeyCreated>(`/partner-keys/${id}/rotate`, { method: 'POST', body: {} }),
  revokePartnerKey: (id: string) => api<PartnerKey>(`/partner-keys/${id}`, { method: 'DELETE' }),
};

export const keysKeys = {
  apiKeys: (q: KeyListQuery) => ['keys', 'api-keys', q] as const,
  enrollmentKeys: (q: KeyListQuery) => ['keys', 'enrollment-keys', q] as const,
  partnerKeys: ['keys', 'partner-keys'] as const,
};

export interface KeyList<T> {
  rows: T[] | null;
  pagination: Paginated<T>['pagination'] | null;
  error: string | null;
  reload: () => void;
}

/** One page of keys; a failed reload keeps the rows already shown. */
function useKeyList<T>(key: readonly unknown[], fetch: () => Promise<Paginated<T>>): KeyList<T> {
  const q = useQuery({ queryKey: key, queryFn: fetch, placeholderData: keepPreviousData });
  return {
    rows: q.data?.data ?? (q.error ? [] : null),
    pagination: q.data?.pagination ?? null,
    error: q.error ? errorMessage(q.error) : null,
    reload: () => void queryClient.invalidateQueries({ queryKey: ['keys'] }),
  };
}

export function useApiKeys(q: KeyListQuery): KeyList<ApiKey> {
  return useKeyList(keysKeys.apiKeys(q), () => keysApi.apiKeys(q));
}

export function useEnrollmentKeys(q: KeyListQuery): KeyList<EnrollmentKey> {
  return useKeyList(keysKeys.enrollmentKeys(q), () => keysApi.enrollmentKeys(q));
}

/** The partner's provisioning keys: one list, never paged (a partner holds a handful). */
export function usePartnerKeys(): KeyList<PartnerKey> {
  const q = useQuery({ queryKey: keysKeys.partnerKeys, queryFn: keysApi.partnerKeys });
  return {
    rows: q.data?.data ?? (q.error ? [] : null),
    pagination: null,
    error: q.error ? errorMessage(q.error) : null,
    reload: () => void queryClient.invalidateQueries({ queryKey: ['keys'] }),
  };
}
