import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  Paginated,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDetail,
  WebhookHeader,
  WebhookListItem,
  WebhookRetryPolicy,
  WebhookRetryResponse,
  WebhookStatus,
  WebhookTestResponse,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { useApiQuery, type QueryState } from '../../lib/query';

// The /webhooks endpoints (spec 2 Webhooks), typed by the contract, and their cached reads. Every key starts
// with 'webhooks' so a live delivery push (live.ts) finds what it must patch or re-read.

export interface WebhookListQuery {
  page: number;
  limit: number;
  status?: WebhookStatus;
}

export interface DeliveryListQuery {
  page: number;
  limit: number;
  status?: WebhookDeliveryStatus;
}

export interface CreateWebhookBody {
  name: string;
  url: string;
  secret: string;
  events: string[];
  headers: WebhookHeader[];
  retryPolicy?: WebhookRetryPolicy;
  orgId?: string;
}

export interface UpdateWebhookBody {
  name?: string;
  url?: string;
  secret?: string;
  events?: string[];
  headers?: WebhookHeader[];
  status?: 'active' | 'paused';
  retryPolicy?: WebhookRetryPolicy | null;
}

const hookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: (q: WebhookListQuery) => api<Paginated<WebhookListItem>>(`/webhooks${qs({ ...q })}`),
  get: (id: string) => api<WebhookDetail>(hookPath(id)),
  create: (body: CreateWebhookBody) => api<Webhook>('/webhooks', { method: 'POST', body }),
  update: (id: string, body: UpdateWebhookBody) => api<Webhook>(hookPath(id), { method: 'PATCH', body }),
  remove: (id: string) => api<void>(hookPath(id), { method: 'DELETE' }),
  deliveries: (id: string, q: DeliveryListQuery) =>
    api<Paginated<WebhookDelivery>>(`${hookPath(id)}/deliveries${qs({ ...q })}`),
  test: (id: string, event: string) =>
    api<WebhookTestResponse>(`${hookPath(id)}/test`, { method: 'POST', body: { event } }),
  retry: (id: string, deliveryId: string) =>
    api<WebhookRetryResponse>(`${hookPath(id)}/retry/${encodeURIComponent(deliveryId)}`, {
      method: 'POST',
      body: {},
    }),
};

export const webhooksKeys = {
  all: ['webhooks'] as const,
  lists: ['webhooks', 'list'] as const,
  list: (q: WebhookListQuery) => ['webhooks', 'list', q] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  /** Every cached page of one webhook's delivery log. */
  deliveriesOf: (id: string) => ['webhooks', 'deliveries', id] as const,
  deliveries: (id: string, q: DeliveryListQuery) => ['webhooks', 'deliveries', id, q] as const,
};

/**
 * One page of webhooks, each with its latest delivery statuses for the sparkline (one request for the page; a
 * burst of delivery pushes re-reads it, live.ts). The previous page stays on screen while the next loads.
 */
export function useWebhookList(q: WebhookListQuery) {
  return useQuery({
    queryKey: webhooksKeys.list(q),
    queryFn: () => webhooksApi.list(q),
    placeholderData: keepPreviousData,
  });
}

export function useWebhook(id: string): QueryState<WebhookDetail> {
  return useApiQuery(webhooksKeys.detail(id), () => webhooksApi.get(id));
}

/** One page of a webhook's delivery log, newest first. */
export function useDeliveries(id: string, q: DeliveryListQuery) {
  return useQuery({
    queryKey: webhooksKeys.deliveries(id, q),
    queryFn: () => webhooksApi.deliveries(id, q),
    placeholderData: keepPreviousData,
  });
}
