import { resolve } from 'node:path';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './contract';

// The runtime contract of DESIGN §2, parsed once at start. A bad value stops the server with a clear message
// instead of surfacing later as a confusing failure.

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_ENCRYPTION_KEY: z.string().min(32).optional(),
  JWT_SECRET: z.string().min(32).optional(),
  ENROLLMENT_KEY_PEPPER: z.string().min(16).optional(),
  SECRET_ENCRYPTION_KEY: z.string().min(16).optional(),
  ENABLE_2FA: bool(true),
  ENABLE_REGISTRATION: bool(true),
  AUTO_MIGRATE: bool(true),
  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `BOOTSTRAP_ADMIN_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .optional(),
  SEED_DEMO: bool(false),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  SMTP_URL: z.string().optional(),
  ENROLLMENT_SECRET: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
  SSO_ALLOW_INSECURE_ISSUER: bool(false),
  WEBAUTHN_RP_ID: z.string().min(1).default('localhost'),
  WEBAUTHN_ORIGINS: z.string().optional(),
  TRUST_PROXY_HEADERS: bool(false),
  TRUSTED_PROXY_CIDRS: z.string().optional(),
  OFFBOARDING_DRAIN_WINDOW_HOURS: z.coerce.number().positive().default(72),
  PAM_PENDING_TTL_MINUTES: z.coerce.number().positive().default(15),
  PUBLIC_URL: z.url().optional(),
  ENROLLMENT_KEY_DEFAULT_TTL_MINUTES: z.coerce.number().int().positive().default(60),
  AGENT_BINARIES_DIR: z.string().min(1).optional(),
  DEMO_AGENTS: z.coerce.number().int().min(0).max(10000).default(0),
  DEMO_SCENARIO: z.string().trim().min(1).default('steady'),
  AGENT_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  AGENT_RELEASE_FEED_URL: z.url({ protocol: /^https?$/ }).optional(),
  RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS: z.string().optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  // Fractional hours are allowed (0.5 = every 30 minutes; tests use seconds' worth).
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 366)
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  BACKUP_PASSPHRASE: z.string().min(12, 'BACKUP_PASSPHRASE must be at least 12 characters').optional(),
});

export type RawEnv = Record<string, string | undefined>;

export const DEFAULT_AGENT_RELEASE_FEED_URL =
  'https://api.github.com/repos/gatehouse-rmm/gatehouse-agent/releases/latest';

export interface Config {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  enable2fa: boolean;
  enableRegistration: boolean;
  autoMigrate: boolean;
  bootstrapAdmin: { email: string; password: string } | null;
  seedDemo: boolean;
  mailOutboxDir: string;
  smtpUrl: string | null;
  enrollmentSecret: string | null;
  webhookAllowPrivateTargets: boolean;
  ssoAllowInsecureIssuer: boolean;
  webauthnRpId: string;
  /** Explicit origins; when empty the console's own origin is used. */
  webauthnOrigins: string[];
  trustProxyHeaders: boolean;
  trustedProxyCidrs: string[];
  offboardingDrainWindowHours: number;
  pamPendingTtlMinutes: number;
  /** Origin used in links sent by email; defaults to the console's own `http://localhost:<port>`. */
  publicUrl: string | null;
  /** Lifetime of a new enrollment key when the request names none (the spec leaves it open; README says why). */
  enrollmentKeyDefaultTtlMinutes: number;
  /** Agent binaries scanned into the version registry at start (default DATA_DIR/agent-binaries). */
  agentBinariesDir: string;
  /** With SEED_DEMO: how many simulated agents run beside the server (`serve --demo --agents N`). */
  demoAgents: number;
  /** The simulator scenario of the demo fleet (`steady`; `pam` makes agents raise elevation requests now and then). */
  demoScenario: string;
  /** The heartbeat interval handed to agents at enrollment and on every heartbeat (spec 3: about 60 s). */
  agentHeartbeatSeconds: number;
  /** The release feed `POST /agent-versions/sync-github` reads (GitHub's latest-release API for the agent). */
  agentReleaseFeedUrl: string;
  /** Ed25519 keys that sign release manifests (spec 3 trust anchor; two overlap during a rotation). */
  releaseManifestPublicKeys: string[];
  /** Scheduled backups (server/jobs/backup.ts): off while `dir` is null. */
  backup: {
    dir: string | null;
    everyHours: number;
    keep: number;
    /** Seals the secrets inside every backup; scheduling refuses to start without it. */
    passphrase: string | null;
  };
  /** Secrets given in the environment; missing ones are generated and kept in DATA_DIR (see secrets.ts). */
  secretOverrides: {
    APP_ENCRYPTION_KEY?: string;
    JWT_SECRET?: string;
    ENROLLMENT_KEY_PEPPER?: string;
    SECRET_ENCRYPTION_KEY?: string;
  };
}

export class ConfigError extends Error {}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function loadConfig(
  env: RawEnv,
  overrides: { dataDir?: string; port?: number; host?: string } = {},
): Config {
  // Blank variables mean "unset": operators often write `FOO=` in unit files and compose files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  if ((e.BOOTSTRAP_ADMIN_EMAIL === undefined) !== (e.BOOTSTRAP_ADMIN_PASSWORD === undefined)) {
    throw new ConfigError(
      'Invalid configuration: set both BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD, or neither',
    );
  }
  const dataDir = resolve(overrides.dataDir ?? e.DATA_DIR ?? './data');
  return {
    production: e.NODE_ENV === 'production',
    port: overrides.port ?? e.PORT ?? 4600,
    host: overrides.host ?? e.HOST ?? '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'gatehouse.db'),
    logLevel: e.LOG_LEVEL,
    enable2fa: e.ENABLE_2FA,
    enableRegistration: e.ENABLE_REGISTRATION,
    autoMigrate: e.AUTO_MIGRATE,
    bootstrapAdmin:
      e.BOOTSTRAP_ADMIN_EMAIL && e.BOOTSTRAP_ADMIN_PASSWORD
        ? { email: e.BOOTSTRAP_ADMIN_EMAIL, password: e.BOOTSTRAP_ADMIN_PASSWORD }
        : null,
    seedDemo: e.SEED_DEMO,
    mailOutboxDir: resolve(e.MAIL_OUTBOX_DIR ?? resolve(dataDir, 'outbox')),
    smtpUrl: e.SMTP_URL ?? null,
    enrollmentSecret: e.ENROLLMENT_SECRET ?? null,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    ssoAllowInsecureIssuer: e.SSO_ALLOW_INSECURE_ISSUER,
    webauthnRpId: e.WEBAUTHN_RP_ID,
    webauthnOrigins: list(e.WEBAUTHN_ORIGINS),
    trustProxyHeaders: e.TRUST_PROXY_HEADERS,
    trustedProxyCidrs: list(e.TRUSTED_PROXY_CIDRS),
    offboardingDrainWindowHours: e.OFFBOARDING_DRAIN_WINDOW_HOURS,
    pamPendingTtlMinutes: e.PAM_PENDING_TTL_MINUTES,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : null,
    enrollmentKeyDefaultTtlMinutes: e.ENROLLMENT_KEY_DEFAULT_TTL_MINUTES,
    agentBinariesDir: resolve(e.AGENT_BINARIES_DIR ?? resolve(dataDir, 'agent-binaries')),
    demoAgents: e.DEMO_AGENTS,
    demoScenario: e.DEMO_SCENARIO,
    agentHeartbeatSeconds: e.AGENT_HEARTBEAT_SECONDS,
    agentReleaseFeedUrl: e.AGENT_RELEASE_FEED_URL ?? DEFAULT_AGENT_RELEASE_FEED_URL,
    releaseManifestPublicKeys: list(e.RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS),
    backup: {
      dir: e.BACKUP_DIR ? resolve(e.BACKUP_DIR) : null,
      everyHours: e.BACKUP_EVERY_HOURS,
      keep: e.BACKUP_KEEP,
      passphrase: e.BACKUP_PASSPHRASE ?? null,
    },
    secretOverrides: {
      APP_ENCRYPTION_KEY: e.APP_ENCRYPTION_KEY,
      JWT_SECRET: e.JWT_SECRET,
      ENROLLMENT_KEY_PEPPER: e.ENROLLMENT_KEY_PEPPER,
      SECRET_ENCRYPTION_KEY: e.SECRET_ENCRYPTION_KEY,
    },
  };
}
