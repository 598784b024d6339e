import { usePathname } from '../../lib/router';
import { useDeliveryPushes } from './live';
import { WebhookDetailPage } from './WebhookDetailPage';
import { WebhooksPage } from './WebhooksPage';
import './webhooks.css';

// /webhooks       the webhooks of every organization in scope, with their health at a glance
// /webhooks/<id>  one webhook: its settings, counters, delivery log, test delivery and receiver snippet
// Delivery pushes keep the cached reads of both current while either is open.

export function WebhooksSection() {
  useDeliveryPushes();
  const id = decodeURIComponent(
    usePathname().slice('/webhooks'.length).replace(/^\/+/, '').split('/')[0] ?? '',
  );
  return id ? <WebhookDetailPage key={id} webhookId={id} /> : <WebhooksPage />;
}
