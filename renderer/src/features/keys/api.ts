import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  ApiKey,
  CreateApiKeyBody,
  CreateEnrollmentKeyBody,
  CreatePartnerKeyBody,
  EnrollmentKey,
  KeyListQuery,
  Paginated,
  PartnerKey,
  RotateEnrollmentKeyBody,
  UpdateApiKeyBody,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { errorMessage } from '../../lib/errors';
import { queryClient } from '../../lib/query';

export type { KeyListQuery };

// The keys endpoints (spec 1: API keys; spec 3: enrollment keys), typed by the contract, and their cached lists.

export const keysApi = {
  apiKeys: (query: KeyListQuery) => call('GET /api-keys', { query }),
  createApiKey: (body: CreateApiKeyBody) => call('POST /api-keys', { body }),
  updateApiKey: (id: string, changes: UpdateApiKeyBody) =>
    call('PATCH /api-keys/:id', { params: { id }, body: changes }),
  rotateApiKey: (id: string) => call('POST /api-keys/:id/rotate', { params: { id } }),
  deleteApiKey: (id: string) => call('DELETE /api-keys/:id', { params: { id } }),

  enrollmentKeys: (query: KeyListQuery) => call('GET /enrollment-keys', { query }),
  createEnrollmentKey: (body: CreateEnrollmentKeyBody) => call('POST /enrollment-keys', { body }),
  rotateEnrollmentKey: (id: string, body: RotateEnrollmentKeyBody) =>
    call('POST /enrollment-keys/:id/rotate', { params: { id }, body }),
  deleteEnrollmentKey: (id: string) => call('DELETE /enrollment-keys/:id', { params: { id } }),

  partnerKeys: () => call('GET /partner-keys'),
  createPartnerKey: (body: CreatePartnerKeyBody) => call('POST /partner-keys', { body }),
  rotatePartnerKey: (id: string) => call('POST /partner-keys/:id/rotate', { params: { id } }),
  revokePartnerKey: (id: string) => call('DELETE /partner-keys/:id', { params: { id } }),
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
