import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  DeliveryListQuery,
  UpdateWebhookBody,
  CreateWebhookBody,
  WebhookDetail,
  WebhookListQuery,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { useApiQuery, type QueryState } from '../../lib/query';

export type { CreateWebhookBody, DeliveryListQuery, UpdateWebhookBody, WebhookListQuery };

// The /webhooks endpoints (spec 2 Webhooks), typed by the contract, and their cached reads. Every key starts
// with 'webhooks' so a live delivery push (live.ts) finds what it must patch or re-read.

export const webhooksApi = {
  list: (query: WebhookListQuery) => call('GET /webhooks', { query }),
  get: (id: string) => call('GET /webhooks/:id', { params: { id } }),
  create: (body: CreateWebhookBody) => call('POST /webhooks', { body }),
  update: (id: string, body: UpdateWebhookBody) => call('PATCH /webhooks/:id', { params: { id }, body }),
  remove: (id: string) => call('DELETE /webhooks/:id', { params: { id } }),
  deliveries: (id: string, query: DeliveryListQuery) =>
    call('GET /webhooks/:id/deliveries', { params: { id }, query }),
  test: (id: string, event: string) => call('POST /webhooks/:id/test', { params: { id }, body: { event } }),
  retry: (id: string, deliveryId: string) =>
    call('POST /webhooks/:id/retry/:deliveryId', { params: { id, deliveryId } }),
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
