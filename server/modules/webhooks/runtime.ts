import { Agent } from 'node:https';
import type { AppContext } from '../../context';
import { singleFlight, systemResolver, type Resolver } from './address';
import { ATTEMPT_TIMEOUT_MS } from './retry';

// What the webhook routes, the event fan-out and the dispatch job share for one server: the context, how names
// are resolved and certificates trusted, the clock, and a way to wake the dispatcher when work is queued.

/** ServerOptions.webhooks: production uses the defaults; tests inject what they need to observe. */
export interface WebhookOptions {
  /** DNS resolution of webhook hosts (default: dns.lookup with all addresses). */
  resolver?: Resolver;
  /**
   * PEM of an extra certificate authority the sender trusts instead of the system's (a test's throwaway CA, for a
   * server inside the test process where NODE_EXTRA_CA_CERTS cannot be set). Certificates are always verified.
   */
  ca?: string;
  /** Clock in Unix milliseconds (default Date.now). */
  now?: () => number;
  /** Timeout of one attempt (spec 2: 30 s). */
  attemptTimeoutMs?: number;
  /** How often the dispatcher looks for due deliveries besides being woken (default 1 s). */
  pollIntervalMs?: number;
  /** Attempts in flight at once (default 16). */
  concurrency?: number;
}

export interface WebhookRuntime {
  ctx: AppContext;
  resolver: Resolver;
  ca: string | undefined;
  now: () => number;
  attemptTimeoutMs: number;
  pollIntervalMs: number;
  concurrency: number;
  allowPrivate: boolean;
  /** Keeps TLS connections to receivers open between attempts. */
  agent: Agent;
  /** Asks the dispatcher for a pass soon (set by the dispatch job; a no-op until it runs). */
  wake: () => void;
}

export function webhookRuntime(ctx: AppContext, options: WebhookOptions = {}): WebhookRuntime {
  const concurrency = options.concurrency ?? 16;
  return {
    ctx,
    resolver: singleFlight(options.resolver ?? systemResolver),
    ca: options.ca,
    now: options.now ?? Date.now,
    attemptTimeoutMs: options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    concurrency,
    allowPrivate: ctx.config.webhookAllowPrivateTargets,
    agent: new Agent({ keepAlive: true, maxSockets: concurrency }),
    wake: () => undefined,
  };
}
