import { createServer as createHttpServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import pino, { type Logger } from 'pino';
import { claimDataDir } from './backup/lock';
import { backupRoutes } from './backup/routes';
import { loadConfig, type Config } from './config';
import type { AppContext } from './context';
import type { DemoSeedResponse } from './contract';
import { SecretBox } from './crypto';
import { startCheckpointer } from './db/checkpointer';
import { openDatabase, type Db } from './db/connection';
import { loadMigrations, migrate, migrationStatus, MigrationError } from './db/migrate';
import { EventBus } from './events/bus';
import { API_PREFIX, buildApp } from './http/app';
import { authenticator, mfaGuard, permissionGuard } from './http/authenticate';
import { clientResolver } from './http/client-info';
import { allowedHostnames, HostPolicy, upgradeHostCheck } from './http/host';
import { HttpError } from './http/errors';
import { SecretGuard } from './http/guard';
import { RateLimiter } from './http/rate-limit';
import { TenantGuard } from './http/tenant-guard';
import { AGENT_SOCKET_PATH, AgentHub } from './hub/agent-hub';
import { ConsoleHub } from './hub/console-hub';
import { consoleSocketRoutes } from './hub/console-routes';
import { startAccessReviewReminders } from './jobs/access-review-reminders';
import { startAuditRetention } from './jobs/audit-retention';
import { BackupScheduler } from './jobs/backup';
import { startDeviceMetrics } from './jobs/device-metrics';
import { startDevicePresence } from './jobs/device-presence';
import { startHousekeeping } from './jobs/housekeeping';
import { startOffboardingReaper } from './jobs/offboarding-reaper';
import { startPamExpiry } from './jobs/pam-expiry';
import { startPresenceHistoryPruning } from './jobs/presence-history';
import { startWebhookDispatch } from './jobs/webhook-dispatch';
import { Mailer } from './mail';
import { accessReviewRoutes } from './modules/access-reviews/routes';
import { ApiKeyAuthenticator } from './modules/api-keys';
import { apiKeyRoutes } from './modules/api-keys/routes';
import { agentAuthenticator } from './modules/agents';
import { agentRoutes } from './modules/agents/routes';
import { agentVersionRoutes } from './modules/agent-versions/routes';
import { prepareAgentVersions } from './modules/agent-versions';
import { dashboardRoutes } from './modules/dashboard/routes';
import { subscribePresenceHistory } from './modules/dashboard';
import { demoRoutes } from './modules/demo/routes';
import { simulatorRoutes } from './modules/demo/simulator-routes';
import { deviceRoutes } from './modules/devices/routes';
import { deviceMetricRoutes } from './modules/device-metrics/routes';
import { flushMetricSamples } from './modules/device-metrics';
import { softwareInventoryRoutes } from './modules/software-inventory/routes';
import { filterRoutes } from './modules/filters/routes';
import { logRoutes } from './modules/logs/routes';
import { pamAuditExportRoutes } from './modules/pam/audit-export/routes';
import { postureRoutes } from './modules/posture/routes';
import { subscribeEnforcementResults, warnStaleTierRules } from './modules/pam';
import { pamPolicyRoutes } from './modules/pam/policy/routes';
import { pamRoutes } from './modules/pam/routes';
import { searchRoutes } from './modules/search/routes';
import { seedDemo, demoSimulator, installDemoSimulator, selfUrl, startDemoFleet } from './modules/demo';
import { enrollmentKeyRoutes } from './modules/enrollment-keys/routes';
import { smsRoutes } from './modules/mfa/sms-routes';
import { passwordRoutes } from './modules/passwords/routes';
import { registrationRoutes } from './modules/registration/routes';
import { roleRoutes } from './modules/roles/routes';
import { tenancyRoutes } from './modules/tenancy/routes';
import { contactRoutes } from './modules/contacts/routes';
import { importRoutes } from './modules/imports/routes';
import { partnerApiRoutes } from './modules/partner-api/routes';
import { partnerKeyAuthenticator } from './modules/partner-api';
import { userRoutes } from './modules/users/routes';
import { subscribeWebhookEvents, webhookRoutes, webhookRuntime } from './modules/webhooks';
import { ssoRuntime } from './modules/sso';
import { ssoDomainRoutes } from './modules/sso/domain-routes';
import { ssoLoginRoutes } from './modules/sso/login-routes';
import { ssoProviderRoutes } from './modules/sso/routes';
import { auditRoutes } from './modules/audit/routes';
import { AuditWriter } from './modules/audit';
import { authRoutes } from './modules/auth/routes';
import { TokenService } from './modules/sessions';
import { healthRoutes } from './modules/health/routes';
import { mfaRoutes } from './modules/mfa/routes';
import { setupRoutes } from './modules/setup/routes';
import { FirstRun } from './modules/setup';
import type { ServerOptions } from './options';
import { fileSecretStore, loadSecrets, portableSecrets } from './secrets';

export type { ServerOptions, SecretStore } from './options';
export type { DemoSeedResponse } from './contract';
export { ConfigError } from './config';
export { MigrationError } from './db/migrate';

export interface RunningServer {
  /** `http://localhost:<port>`: localhost, not an IP, because an IP is not a valid WebAuthn RP ID. */
  url: string;
  port: number;
  /** The one-time first-run setup token, while no user exists and no bootstrap administrator was configured. */
  setupToken: string | null;
  /** With SEED_DEMO: the demo tenant's technicians and a fresh fleet enrollment key. */
  demo: DemoSeedResponse | null;
  config: Config;
  context: AppContext;
  close(): Promise<void>;
}

const PORT_ATTEMPTS = 20;

const LISTEN_BACKLOG = 4096;

function listen(server: Server, port: number, host: string, fallback: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    let attempt = 0;
    const tryPort = (p: number) => {
      const onError = (err: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        if (err.code === 'EADDRINUSE' && fallback && p !== 0 && ++attempt < PORT_ATTEMPTS) tryPort(p + 1);
        else reject(err);
      };
      const onListening = () => {
        server.off('error', onError);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : p);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      // A fleet reconnecting at once (a server restart, an enrollment storm) opens thousands of connections in a
      // moment: a short accept queue would drop them, and each dropped one waits out TCP's SYN backoff (1, 3, 7,
      // 15 s...). The kernel caps the backlog at net.core.somaxconn.
      server.listen({ port: p, host, backlog: LISTEN_BACKLOG });
    };
    tryPort(port);
  });
}

/** Opens the database and brings its schema to this release (or refuses, per AUTO_MIGRATE). */
function prepareDatabase(config: Config, log: Logger, nativeBinding: string | undefined): Db {
  const db = openDatabase(config.databaseFile, nativeBinding);
  try {
    const migrations = loadMigrations();
    if (config.autoMigrate) {
      const applied = migrate(db, migrations);
      if (applied.length) log.info({ applied }, 'database migrated');
    } else {
      const { pending } = migrationStatus(db, migrations);
      if (pending.length) {
        throw new MigrationError(
          `The database needs ${pending.length} migration(s) and AUTO_MIGRATE is false. Run \`npm run migrate\` first.`,
        );
      }
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** SEED_DEMO at start: a deleted demo tenant is reported in the log, not a reason to refuse to start. */
async function seedDemoAtStart(ctx: AppContext): Promise<DemoSeedResponse | null> {
  try {
    return await seedDemo(ctx, null);
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) {
      ctx.log.warn(err.message);
      return null;
    }
    throw err;
  }
}

/** Builds and starts the whole server: database, API, console hub and jobs. No Electron here (DESIGN §1). */
export async function createServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env ?? process.env, options);
  const log = options.logger ?? pino({ level: config.logLevel, base: { service: 'gatehouse' } });
  const secrets = loadSecrets(config, options.secretStore ?? fileSecretStore(config.dataDir));
  const db = prepareDatabase(config, log, options.nativeBinding);
  // `npm run restore` refuses while this process holds the data directory (server/backup/lock.ts).
  const releaseDataDir = claimDataDir(config.dataDir);
  const checkpoints = startCheckpointer(db, config.databaseFile, {
    nativeBinding: options.nativeBinding,
    onFailure: (err) =>
      log.warn({ err }, 'WAL checkpoint thread failed; SQLite checkpoints on the server thread'),
  });
  // Undone in reverse order if start-up fails half way, so a failed start leaves no open handles behind.
  const teardown: Array<() => void> = [releaseDataDir, () => db.close(), () => void checkpoints.stop()];
  const undo = () => {
    for (const step of teardown.reverse()) step();
  };

  const bus = new EventBus(log, db);
  const limiter = new RateLimiter(db);
  const audit = new AuditWriter(db, bus, log);
  const guard = new SecretGuard(db, audit);
  // The agent hub needs the context it belongs to; it is attached right after the literal.
  const ctx = {
    config,
    db,
    log,
    bus,
    audit,
    tokens: new TokenService(db, secrets.jwtSecret),
    limiter,
    guard,
    secretBox: new SecretBox(secrets.appEncryptionKey),
    mailer: new Mailer(config.mailOutboxDir, config.smtpUrl, log),
    tenantGuard: new TenantGuard(db),
    apiKeys: new ApiKeyAuthenticator(db, limiter, guard),
    enrollmentKeyPepper: secrets.enrollmentKeyPepper,
    publicOrigin: config.publicUrl ?? '',
  } as AppContext;
  ctx.agentHub = new AgentHub(ctx, options.agentTimings);
  teardown.push(() => ctx.agentHub.close());
  const firstRun = new FirstRun(ctx);
  let setupToken: string | null;
  let demo: DemoSeedResponse | null = null;
  try {
    setupToken = await firstRun.start();
    await prepareAgentVersions(ctx);
    warnStaleTierRules(ctx);
    if (config.seedDemo) demo = await seedDemoAtStart(ctx);
    // The demo's people (and its platform administrator) close first run: a setup link now would be dead.
    if (setupToken && !firstRun.required) {
      firstRun.withdraw();
      setupToken = null;
    }
  } catch (err) {
    undo();
    throw err;
  }
  subscribeEnforcementResults(ctx);
  teardown.push(subscribePresenceHistory(ctx));
  const webhooks = webhookRuntime(ctx, options.webhooks);
  teardown.push(subscribeWebhookEvents(webhooks));
  const sso = ssoRuntime(ctx, options.sso);
  const hub = new ConsoleHub(ctx);
  teardown.push(() => hub.close());
  installDemoSimulator(ctx, options.demoFleet ?? null);
  const backups = new BackupScheduler(ctx, portableSecrets(secrets), options.nativeBinding);

  const routes = [
    ...healthRoutes(ctx, firstRun),
    ...setupRoutes(ctx, firstRun),
    ...authRoutes(ctx),
    ...mfaRoutes(ctx),
    ...smsRoutes(ctx),
    ...registrationRoutes(ctx),
    ...passwordRoutes(ctx),
    ...tenancyRoutes(ctx),
    ...importRoutes(ctx),
    ...contactRoutes(ctx),
    ...partnerApiRoutes(ctx),
    ...userRoutes(ctx),
    ...roleRoutes(ctx),
    ...accessReviewRoutes(ctx),
    ...apiKeyRoutes(ctx),
    ...enrollmentKeyRoutes(ctx),
    ...demoRoutes(ctx),
    ...simulatorRoutes(ctx),
    ...auditRoutes(ctx),
    ...agentRoutes(ctx),
    ...postureRoutes(ctx),
    ...deviceRoutes(ctx),
    ...deviceMetricRoutes(ctx),
    ...softwareInventoryRoutes(ctx),
    ...logRoutes(ctx),
    ...filterRoutes(ctx),
    ...searchRoutes(ctx),
    ...agentVersionRoutes(ctx),
    ...pamRoutes(ctx),
    ...pamPolicyRoutes(ctx),
    ...pamAuditExportRoutes(ctx),
    ...webhookRoutes(webhooks),
    ...ssoProviderRoutes(sso),
    ...ssoDomainRoutes(sso),
    ...ssoLoginRoutes(sso),
    ...consoleSocketRoutes(hub),
    ...backupRoutes(backups),
    ...dashboardRoutes(ctx),
  ];
  const resolveClient = clientResolver({
    enabled: config.trustProxyHeaders,
    cidrs: config.trustedProxyCidrs,
  });
  const hosts = new HostPolicy(allowedHostnames(config));
  const app = buildApp({
    log,
    routes,
    staticDir: options.staticDir ?? null,
    resolveClient,
    hosts,
    middleware: {
      authenticate: (mode) => authenticator(ctx, mode),
      authenticateAgent: (access) => agentAuthenticator(db, access),
      authenticatePartnerKey: partnerKeyAuthenticator(ctx),
      requireMfa: mfaGuard(ctx),
      requirePermission: (permission) => permissionGuard(ctx, permission),
    },
  });

  const server = createHttpServer(app);
  const admitUpgrade = upgradeHostCheck(hosts, resolveClient);
  server.on('upgrade', (req, socket, head) => {
    if (!admitUpgrade(req, socket)) return;
    const path = (req.url ?? '').split('?')[0];
    const agent = AGENT_SOCKET_PATH.exec(path ?? '');
    if (path === `${API_PREFIX}/ws`) hub.handleUpgrade(req, socket, head);
    else if (agent?.[1]) ctx.agentHub.handleUpgrade(req, socket, head, agent[1]);
    else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const stopJobs = [
    startHousekeeping(ctx),
    startOffboardingReaper(ctx),
    startDevicePresence(ctx, options.agentTimings?.presenceSweepMs),
    startPamExpiry(ctx, options.pamExpirySweepMs),
    backups.start(),
    startWebhookDispatch(webhooks),
    startAccessReviewReminders(ctx),
    startAuditRetention(ctx),
    startPresenceHistoryPruning(ctx),
    startDeviceMetrics(ctx),
  ];
  const stopAllJobs = () => stopJobs.forEach((stop) => stop());
  teardown.push(stopAllJobs);
  let port: number;
  try {
    port = await listen(server, config.port, config.host, options.portFallback ?? false);
  } catch (err) {
    undo();
    throw err;
  }
  ctx.publicOrigin = config.publicUrl ?? `http://localhost:${port}`;
  log.info({ host: config.host, port, dataDir: config.dataDir }, 'gatehouse server listening');
  // `serve --demo --agents N`: the simulated fleet runs beside the server, against its own address.
  await startDemoFleet(ctx, selfUrl(config.host, port));

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // The demo fleet leaves first, so its agents do not see the server go away and start reconnecting.
      await demoSimulator(ctx).stop();
      stopAllJobs();
      hub.close();
      ctx.agentHub.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still in flight get a moment to finish before their sockets are cut.
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 2000).unref();
      });
      ctx.apiKeys.flush();
      ctx.audit.flush();
      flushMetricSamples(db); // heartbeats answered after the jobs stopped
      await backups.idle(); // a scheduled backup reads the database until it is done
      await checkpoints.stop();
      db.close();
      releaseDataDir();
      log.info('gatehouse server stopped');
    })());

  return { url: `http://localhost:${port}`, port, setupToken, demo, config, context: ctx, close };
}
