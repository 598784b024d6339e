// The public surface of the webhooks feature: what the route table may import.

export { WebhooksSection } from './WebhooksSection';
