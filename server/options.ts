import type { Logger } from 'pino';
import type { DemoFleetLauncher } from './modules/demo';
import type { SsoOptions } from './modules/sso';
import type { WebhookOptions } from './modules/webhooks';

/** Where secrets generated on first start are kept. The desktop seals them with safeStorage; headless uses a 0600 file. */
export interface SecretStore {
  /** Returns the stored secrets, or null when none were stored yet. */
  read(): Record<string, string> | null;
  write(secrets: Record<string, string>): void;
}

export interface ServerOptions {
  /** Defaults to DATA_DIR, then ./data. */
  dataDir?: string;
  /** Defaults to PORT, then 4600. 0 picks a free port. */
  port?: number;
  /** Defaults to HOST, then 127.0.0.1. */
  host?: string;
  /** When the port is busy, try the following ports (the desktop wants this; headless fails instead). */
  portFallback?: boolean;
  /** Built console to serve with history fallback; null serves the API only. */
  staticDir?: string | null;
  /** Environment to read the runtime contract from (DESIGN §2); defaults to process.env. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  secretStore?: SecretStore;
  /** better-sqlite3 native addon to load instead of the default one (the Electron-ABI build in the desktop). */
  nativeBinding?: string;
  /** Agent-side timings, for tests; production uses the defaults (25 s pings, 30 s live queries, 10 s sweep). */
  agentTimings?: {
    pingIntervalMs?: number;
    liveQueryTimeoutMs?: number;
    presenceSweepMs?: number;
  };
  /** The PAM expiry sweep interval, for tests (default 5 s). */
  pamExpirySweepMs?: number;
  /**
   * Simulated agents for demo mode (`serve --demo --agents N`, the console's simulator panel), supplied by the
   * entry that composes the app (app/) so that server/ never imports agent-sim/. Without it the simulator is
   * unavailable.
   */
  demoFleet?: DemoFleetLauncher;
  /** Webhook delivery seams for tests (resolver, trusted CA, clock, timeouts); production uses the defaults. */
  webhooks?: WebhookOptions;
  /** Single sign-on DNS seams for tests (IdP address resolution, TXT lookups); production uses the system's. */
  sso?: SsoOptions;
}
