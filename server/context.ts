import type { Logger } from 'pino';
import type { Config } from './config';
import type { SecretBox } from './crypto';
import type { Db } from './db/connection';
import type { EventBus } from './events/bus';
import type { SecretGuard } from './http/guard';
import type { RateLimiter } from './http/rate-limit';
import type { TenantGuard } from './http/tenant-guard';
import type { AgentHubPort } from './hub/agent-hub-port';
import type { Mailer } from './mail';
import type { ApiKeyAuthenticator } from './modules/api-keys/authenticate';
import type { AuditWriter } from './modules/audit/writer';
import type { TokenService } from './modules/sessions/tokens';

/** The shared services every module is built from; created once by createServer. */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  bus: EventBus;
  audit: AuditWriter;
  tokens: TokenService;
  limiter: RateLimiter;
  /** The one limiter for secret guesses: every password, code, key and token check goes through it. */
  guard: SecretGuard;
  secretBox: SecretBox;
  mailer: Mailer;
  tenantGuard: TenantGuard;
  apiKeys: ApiKeyAuthenticator;
  /** Server-side secret mixed into enrollment key hashes (spec 1 fallback order; see secrets.ts). */
  enrollmentKeyPepper: string;
  /** Agent sockets: command pushes and live queries to connected agents (server/hub/agent-hub.ts). */
  agentHub: AgentHubPort;
  /** The console's origin for links in emails: PUBLIC_URL, else `http://localhost:<port>` once listening. */
  publicOrigin: string;
}
