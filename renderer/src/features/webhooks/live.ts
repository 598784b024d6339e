import type { QueryKey } from '@tanstack/react-query';
import type { Paginated, WebhookDelivery } from '../../../../server/contract';
import { useDebouncedCallback } from '../../lib/hooks';
import { useLiveEvent } from '../../lib/live/useLiveEvent';
import { queryClient } from '../../lib/query';
import { webhooksKeys, type DeliveryListQuery } from './api';

// `webhook.delivery.created` / `.updated` pushes (the delivery as it now stands) kept in the query cache: each
// cached page of that webhook's deliveries is patched at once (a new delivery enters the first page that would
// hold it, an attempt's outcome replaces the row), and the counters (the webhook's deliveryStats and the list)
// are re-read shortly after, once per burst. Nothing polls.

const RECOUNT_AFTER_PUSH_MS = 600;

type Page = Paginated<WebhookDelivery>;

/**
 * The page after a push about `delivery` (`created`: just queued; `updated`: an attempt finished), or 'refetch'
 * when a patch cannot know where it belongs.
 */
export function patchPage(
  page: Page,
  q: DeliveryListQuery,
  delivery: WebhookDelivery,
  created: boolean,
): Page | 'refetch' {
  const at = page.data.findIndex((d) => d.id === delivery.id);
  const fits = q.status === undefined || q.status === delivery.status;
  if (at >= 0) {
    // A row that left the filtered status (retrying -> delivered under "Retrying") goes on the next read.
    if (!fits) return 'refetch';
    return { ...page, data: page.data.map((d, i) => (i === at ? delivery : d)) };
  }
  if (!fits) return page;
  // An update to a row not shown: an older delivery on another page, or one that just entered this filter.
  if (!created) return q.status === undefined ? page : 'refetch';
  // Newest first: a new delivery goes on top of the first page, and shifts every later page by one.
  if (page.pagination.page !== 1) return 'refetch';
  return {
    data: [delivery, ...page.data].slice(0, q.limit),
    pagination: { ...page.pagination, total: page.pagination.total + 1 },
  };
}

function deliveryQueryOf(key: QueryKey): DeliveryListQuery | null {
  const q = key[3];
  return q && typeof q === 'object' ? (q as DeliveryListQuery) : null;
}

/** Keeps every cached webhook read current with the delivery pushes while a webhook screen is open. */
export function useDeliveryPushes(): void {
  const recount = useDebouncedCallback(() => {
    void queryClient.invalidateQueries({ queryKey: webhooksKeys.lists });
    void queryClient.invalidateQueries({ queryKey: ['webhooks', 'detail'] });
  }, RECOUNT_AFTER_PUSH_MS);

  useLiveEvent('webhook.*', ({ event, data: delivery }) => {
    const created = event === 'webhook.delivery.created';
    const stale: QueryKey[] = [];
    for (const [key, page] of queryClient.getQueriesData<Page>({
      queryKey: webhooksKeys.deliveriesOf(delivery.webhookId),
    })) {
      const q = deliveryQueryOf(key);
      if (!page || !q) continue;
      const next = patchPage(page, q, delivery, created);
      if (next === 'refetch') stale.push(key);
      else if (next !== page) queryClient.setQueryData<Page>(key, next);
    }
    for (const key of stale) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    recount();
  });
}
