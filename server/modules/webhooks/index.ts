// The webhooks module's public surface (spec 2 Webhooks). server/index.ts composes it: a runtime per server, the
// routes, the bus fan-out and the dispatch job (server/jobs/webhook-dispatch.ts).
export { webhookRuntime, type WebhookOptions, type WebhookRuntime } from './runtime';
export { webhookRoutes } from './routes';
export { subscribeWebhookEvents } from './pipeline';
export { createDispatcher, type Dispatcher } from './dispatch';
export { seedExampleWebhook } from './example';
// The address judgement, for other modules that fetch administrator-given URLs (SSO discovery and endpoints).
export {
  checkTarget,
  parseTarget,
  pinnedLookup,
  systemResolver,
  type ResolvedAddress,
  type Resolver,
} from './address';
