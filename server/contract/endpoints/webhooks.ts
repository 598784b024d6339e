import type { Paginated } from '../common';
import type {
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
} from '../webhooks';
import type { Endpoint } from './endpoint';

// /webhooks (spec 2 Webhooks).

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

export interface WebhookEndpoints {
  'GET /webhooks': Endpoint<Paginated<WebhookListItem>, undefined, WebhookListQuery>;
  'POST /webhooks': Endpoint<Webhook, CreateWebhookBody>;
  'GET /webhooks/:id': Endpoint<WebhookDetail>;
  'PATCH /webhooks/:id': Endpoint<Webhook, UpdateWebhookBody>;
  'DELETE /webhooks/:id': Endpoint<void>;
  'GET /webhooks/:id/deliveries': Endpoint<Paginated<WebhookDelivery>, undefined, DeliveryListQuery>;
  'POST /webhooks/:id/test': Endpoint<WebhookTestResponse, { event: string }>;
  'POST /webhooks/:id/retry/:deliveryId': Endpoint<WebhookRetryResponse>;
}
