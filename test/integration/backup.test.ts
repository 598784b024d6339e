// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fleet } from '../../agent-sim/fleet';
import { MemoryCredentialStore } from '../../agent-sim/state';
import { LOCK_FILE } from '../../server/backup/lock';
import { restoreBackup } from '../../server/backup/restore';
import { createServer } from '../../server/index';
import { insertEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { insertPartnerUser, plainToken } from '../support/seed';
import { ADMIN, ApiClient, auditSettled, enrollTotp, totp, type TestServer } from '../support/server';

// Operators' backups end to end: `npm run backup` (server/cli.ts in its own process) copies the live database
// while 200 simulated agents heartbeat over real HTTP, `npm run restore` puts it into a fresh data directory,
// and a server started there signs the administrator in with MFA (the restored key opens the TOTP secret) and
// serves the same tenants, devices, elevation requests and a verifying audit chain. Then the refusals, and the
// server's own schedule with retention.

const ROOT = join(import.meta.dirname, '..', '..');
const PASSPHRASE = 'correct horse battery staple';
const AGENTS = 200;

const dirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
  dirs.push(dir);
  return dir;
}

/** The server's warnings and errors, so a test can tell that it answered everything while a backup ran. */
type Logged = { level: number; msg: string; err?: { message: string } };

async function boot(
  options: { dataDir?: string; env?: Record<string, string>; logs?: Logged[] } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir('backup-data');
  const logs = options.logs ?? [];
  const server = await createServer({
    dataDir,
    logger: pino({ level: 'warn' }, { write: (line: string) => logs.push(JSON.parse(line) as Logged) }),
    port: 0,
    host: '127.0.0.1',
    staticDir: null,
    env: {
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      AGENT_HEARTBEAT_SECONDS: '2',
      ...options.env,
    },
  });
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    dispose: () => server.close(),
  };
}

/** Runs `server/cli.ts` as `npm run backup` / `npm run restore` do, in its own process. */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', BACKUP_PASSPHRASE: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs the administrator in with the TOTP secret enrolled on the original server. */
async function signIn(server: TestServer, secret: string): Promise<string> {
  const login = await server.api.login();
  expect(login.body.mfaRequired).toBe(true);
  // A code is accepted once per time step, and the original server may have spent this one.
  for (const ahead of [0, 30, 60]) {
    const verify = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: await totp(secret, Math.floor(Date.now() / 1000) + ahead),
    });
    if (verify.status === 200) return verify.body.accessToken as string;
  }
  throw new Error('MFA verification failed on the restored server');
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  let server: TestServer;
  let admin: string;
  let totpSecret: string;
  let fleet: Fleet;
  const logs: Logged[] = [];
  const credentials = new MemoryCredentialStore();
  let backupFile: string;
  const orgIds: string[] = [];
  const elevationIds: string[] = [];

  beforeAll(async () => {
    server = await boot({ logs });
    const enrolled = await enrollTotp(server);
    totpSecret = enrolled.secret;
    admin = enrolled.session.accessToken as string;
    // Two partners with an organization each, through the API so their creation is in the audit chains.
    const keys: string[] = [];
    for (const name of ['Northwind', 'Tailspin']) {
      const partner = await server.api.post(
        '/orgs/partners',
        { name: `${name} MSP`, slug: name.toLowerCase() },
        admin,
      );
      expect(partner.status).toBe(201);
      const org = await server.api.post(
        '/orgs/organizations',
        { name: `${name} Dental`, slug: `${name.toLowerCase()}-dental`, partnerId: partner.body.id },
        admin,
      );
      expect(org.status).toBe(201);
      orgIds.push(org.body.id as string);
      const { key } = insertEnrollmentKey(server.context, {
        orgId: org.body.id as string,
        siteId: null,
        name: 'backup test',
        maxUsage: AGENTS,
        createdBy: 'test',
      });
      keys.push(key);
    }
    fleet = new Fleet({
      server: server.url,
      enrollmentKey: (index) => keys[index % 2],
      count: AGENTS,
      seed: 31,
      credentials,
      enrollConcurrency: 16,
    });
    fleet.start();
    await until(
      `${AGENTS} agents heartbeating`,
      () => {
        const stats = fleet.stats();
        return stats.enrolled === AGENTS && stats.heartbeats >= AGENTS;
      },
      40_000,
    );
    for (let i = 0; i < 3; i++) elevationIds.push((await fleet.raiseElevation()).id!);
    backupFile = join(tempDir('backup-files'), 'gatehouse.gbak');
  }, 60_000);

  afterAll(async () => {
    await fleet.stop();
    await server.dispose();
  });

  it('backs up the live database while the fleet heartbeats; a fresh restore serves the same install', async () => {
    // Every agent has enrolled (one whose answer timed out on a busy machine may hold a second device row).
    const devicesAtBackup = (
      server.context.db.prepare('SELECT id FROM devices ORDER BY id').all() as Array<{ id: string }>
    ).map((d) => d.id);
    expect(devicesAtBackup.length).toBeGreaterThanOrEqual(AGENTS);
    const before = fleet.stats();
    const loggedBefore = logs.length;
    const passphraseFile = join(tempDir('backup-pass'), 'passphrase');
    writeFileSync(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
    const backup = await cli([
      'backup',
      '--data-dir',
      server.dataDir,
      '--to',
      backupFile,
      '--passphrase-file',
      passphraseFile,
    ]);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written and verified: /);
    expect(backup.stdout).toMatch(/integrity ok; \d+ audit chains, \d+ entries verified/);
    // The server kept answering the fleet throughout, and nothing failed on its side (a 5xx logs an error).
    const after = fleet.stats();
    expect(after.heartbeats).toBeGreaterThan(before.heartbeats);
    expect(after.failed).toBe(0);
    expect(logs.slice(loggedBefore).filter((entry) => entry.level >= 50)).toEqual([]);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    // The secrets are in the file only sealed.
    const bytes = readFileSync(backupFile);
    const secrets = JSON.parse(readFileSync(join(server.dataDir, 'secrets.json'), 'utf8'));
    expect(bytes.includes(Buffer.from(secrets.APP_ENCRYPTION_KEY as string))).toBe(false);
    expect(bytes.includes(Buffer.from(secrets.JWT_SECRET as string))).toBe(false);
    expect(bytes.subarray(0, 19).toString()).toBe('GATEHOUSE-BACKUP 1\n');

    // The console's card reports the run.
    const status = await server.api.get('/system/backups', admin);
    expect(status.status).toBe(200);
    expect(status.body.last).toMatchObject({
      origin: 'cli',
      status: 'succeeded',
      file: backupFile,
      sizeBytes: bytes.length,
      verified: true,
      error: null,
    });
    expect(status.body.schedule).toMatchObject({ enabled: false, directory: null, nextAt: null });

    const target = join(tempDir('backup-restore'), 'data');
    const restore = await cli(['restore', '--from', backupFile, '--data-dir', target], {
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`into ${target}`);
    expect(statSync(join(target, 'gatehouse.db')).mode & 0o777).toBe(0o600);
    expect(statSync(join(target, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(target).sort()).toEqual(['gatehouse.db', 'secrets.json']);

    const restored = await boot({ dataDir: target });
    try {
      expect(restored.setupToken).toBeNull();
      const token = await signIn(restored, totpSecret);
      const orgs = await restored.api.get('/orgs/organizations?limit=100', token);
      expect(orgs.status).toBe(200);
      expect((orgs.body.data as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([...orgIds].sort());
      const partners = await restored.api.get('/orgs/partners?limit=100', token);
      expect((partners.body.data as Array<{ slug: string }>).map((p) => p.slug).sort()).toEqual([
        'northwind',
        'tailspin',
      ]);
      const devices = await restored.api.get('/devices?limit=1000', token);
      expect(devices.status).toBe(200);
      expect((devices.body.data as Array<{ id: string }>).map((d) => d.id).sort()).toEqual(devicesAtBackup);
      const requests = await restored.api.get('/pam/elevation-requests?limit=100', token);
      expect(requests.status).toBe(200);
      expect((requests.body.requests as Array<{ id: string }>).map((r) => r.id).sort()).toEqual(
        [...elevationIds].sort(),
      );
      await auditSettled(restored);
      const verify = await restored.api.get('/audit-logs/verify', token);
      expect(verify.status).toBe(200);
      expect(verify.body.valid).toBe(true);
      expect(
        (verify.body.chains as Array<{ checked: number }>).reduce((n, c) => n + c.checked, 0),
      ).toBeGreaterThan(4);
      // An agent credential issued before the backup still works against the restored install.
      const slot = credentials.get(0);
      if (slot?.state !== 'active') throw new Error('agent 0 has no credentials');
      const beat = await fetch(`${restored.url}/api/v1/agents/${slot.agent.agentId}/heartbeat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slot.agent.authToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'ok', agentVersion: '1.0.0' }),
      });
      expect(beat.status).toBe(200);
    } finally {
      await restored.dispose();
    }
    // Restoring over it again needs --force (the server has stopped and released the directory).
    expect(existsSync(join(target, LOCK_FILE))).toBe(false);
    await expect(
      restoreBackup({
        from: backupFile,
        dataDir: target,
        databaseFile: join(target, 'gatehouse.db'),
        passphrase: PASSPHRASE,
      }),
    ).rejects.toThrow(/already holds gatehouse\.db, secrets\.json; pass --force/);
  }, 60_000);

  it('refuses to restore over a data directory a server is running on, even with --force', async () => {
    const dbBefore = statSync(join(server.dataDir, 'gatehouse.db')).ino;
    const refused = await cli(['restore', '--from', backupFile, '--data-dir', server.dataDir, '--force'], {
      BACKUP_PASSPHRASE: PASSPHRASE,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`A server is running on .* \\(pid ${process.pid} `));
    expect(statSync(join(server.dataDir, 'gatehouse.db')).ino).toBe(dbBefore);
  });

  it('refuses a tampered backup, and a wrong passphrase, leaving the target untouched', async () => {
    const bytes = readFileSync(backupFile);
    const target = join(tempDir('backup-refused'), 'data');

    // One byte of the database image changed.
    const tampered = join(tempDir('backup-tampered'), 'tampered.gbak');
    const flipped = Buffer.from(bytes);
    const at = flipped.length - 4096 - 100;
    flipped[at] = flipped[at]! ^ 0xff;
    writeFileSync(tampered, flipped);
    const restore = (from: string, passphrase = PASSPHRASE) =>
      restoreBackup({ from, dataDir: target, databaseFile: join(target, 'gatehouse.db'), passphrase });
    await expect(restore(tampered)).rejects.toThrow(
      /does not match its checksum: the backup was altered or damaged/,
    );

    // The manifest rewritten to describe another image: the sealed secrets' tag catches it.
    const head = bytes.indexOf(0x0a, 19);
    const manifest = JSON.parse(bytes.subarray(19, head).toString());
    manifest.createdAt = new Date(Date.parse(manifest.createdAt) + 1000).toISOString();
    const forged = join(tempDir('backup-forged'), 'forged.gbak');
    writeFileSync(
      forged,
      Buffer.concat([bytes.subarray(0, 19), Buffer.from(JSON.stringify(manifest)), bytes.subarray(head)]),
    );
    await expect(restore(forged)).rejects.toThrow(/wrong passphrase, or the backup was altered/);

    // A cut-off copy.
    const truncated = join(tempDir('backup-truncated'), 'truncated.gbak');
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 1));
    await expect(restore(truncated)).rejects.toThrow(/is truncated/);
    // Not a backup at all.
    await expect(restore(join(server.dataDir, 'gatehouse.db'))).rejects.toThrow(/is not a Gatehouse backup/);

    await expect(restore(backupFile, 'not the passphrase at all')).rejects.toThrow(
      /wrong passphrase, or the backup was altered/,
    );
    // The command line says so and exits 1; without any passphrase it says where one comes from.
    const none = await cli(['restore', '--from', backupFile, '--data-dir', target]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/--passphrase-file FILE or BACKUP_PASSPHRASE/);

    // Nothing was written, not even a half-extracted image.
    expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
  });

  it('lets platform administrators only read the backup status', async () => {
    const { partnerId, adminRoleId } = (() => {
      const row = server.context.db
        .prepare(
          "SELECT p.id AS partnerId, r.id AS adminRoleId FROM partners p JOIN roles r ON r.partner_id = p.id WHERE p.slug = 'northwind'",
        )
        .get() as { partnerId: string; adminRoleId: string };
      return row;
    })();
    await insertPartnerUser(server, partnerId, adminRoleId, 'boss@northwind.test', { orgAccess: 'all' });
    const partnerAdmin = await plainToken(server, 'boss@northwind.test');
    const refused = await server.api.get('/system/backups', partnerAdmin);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SYSTEM_SCOPE_REQUIRED');
    expect((await server.api.get('/system/backups')).status).toBe(401);
  });
});

describe('scheduled backups', () => {
  it('runs on the interval, verifies each backup, keeps the newest BACKUP_KEEP, and plans from SQLite after a restart', async () => {
    const backupDir = join(tempDir('backup-schedule'), 'backups');
    const env = { BACKUP_DIR: backupDir, BACKUP_KEEP: '1', BACKUP_PASSPHRASE: PASSPHRASE };
    const server = await boot({ env: { ...env, BACKUP_EVERY_HOURS: String(1 / 3600) } }); // every second
    let totpSecret: string | undefined;
    try {
      const enrolled = await enrollTotp(server);
      totpSecret = enrolled.secret;
      const admin = enrolled.session.accessToken as string;
      const runs = () =>
        server.context.db
          .prepare(
            "SELECT status, file, verified, error FROM backup_runs WHERE origin = 'scheduled' ORDER BY started_at",
          )
          .all() as Array<{ status: string; file: string | null; verified: number; error: string | null }>;
      // Backups in the folder; a run under way also has its working files there.
      const backups = () =>
        readdirSync(backupDir)
          .filter((name) => name.endsWith('.gbak'))
          .sort();
      await until('two scheduled backups', () => runs().length >= 2, 30_000);
      // Read together, between two runs: a run records itself and prunes in the same turn of the event loop.
      const done = runs();
      const kept = backups();
      // The schedule goes on every second and will prune this one soon: keep a copy to restore from.
      const file = join(tempDir('backup-schedule-copy'), 'scheduled.gbak');
      copyFileSync(join(backupDir, kept[0]!), file);
      expect(done.every((r) => r.status === 'succeeded' && r.verified === 1 && r.error === null)).toBe(true);
      expect(kept).toEqual([basename(done.at(-1)!.file!)]);
      expect(kept.every((name) => /^gatehouse-\d{8}T\d{9}Z\.gbak$/.test(name))).toBe(true);
      expect(statSync(backupDir).mode & 0o777).toBe(0o700);

      const status = await server.api.get('/system/backups', admin);
      expect(status.status).toBe(200);
      expect(status.body.schedule).toMatchObject({
        enabled: true,
        directory: backupDir,
        everyHours: 1 / 3600,
        keep: 1,
        problem: null,
      });
      expect(Date.parse(status.body.schedule.nextAt as string)).toBeGreaterThan(Date.now() - 5_000);
      expect(status.body.lastSucceeded).toMatchObject({ origin: 'scheduled', verified: true });

      // A scheduled backup restores like any other, and a lock left by a crashed server does not stand in the way.
      const target = join(tempDir('backup-schedule-restore'), 'data');
      const exited = spawnSync(process.execPath, ['-e', '']).pid!;
      mkdirSync(target);
      writeFileSync(
        join(target, LOCK_FILE),
        JSON.stringify({
          pid: exited,
          hostname: hostname(),
          startedAt: new Date().toISOString(),
          nonce: 'x',
        }),
      );
      const restored = await restoreBackup({
        from: file,
        dataDir: target,
        databaseFile: join(target, 'gatehouse.db'),
        passphrase: PASSPHRASE,
      });
      expect(restored.report.auditEntries).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(join(target, 'secrets.json'), 'utf8'))).toEqual(
        JSON.parse(readFileSync(join(server.dataDir, 'secrets.json'), 'utf8')),
      );
      // --force replaces a database and secrets already there, and drops what would corrupt or override them.
      writeFileSync(join(target, 'gatehouse.db-wal'), 'a stale write-ahead log');
      writeFileSync(join(target, 'secrets.sealed'), 'keys sealed by a desktop');
      await restoreBackup({
        from: file,
        dataDir: target,
        databaseFile: join(target, 'gatehouse.db'),
        passphrase: PASSPHRASE,
        force: true,
      });
      expect(readdirSync(target).sort()).toEqual(['gatehouse.db', 'secrets.json', LOCK_FILE]);
    } finally {
      await server.dispose();
    }

    // The schedule's state is in SQLite: restarted with an hourly interval, the next run is an hour after the last.
    const again = await boot({ dataDir: server.dataDir, env: { ...env, BACKUP_EVERY_HOURS: '1' } });
    try {
      const status = await again.api.get('/system/backups', await signIn(again, totpSecret ?? ''));
      expect(Date.parse(status.body.schedule.nextAt as string)).toBe(
        Date.parse(status.body.last.startedAt as string) + 3_600_000,
      );
    } finally {
      await again.dispose();
    }
  }, 60_000);

  it('stays off without BACKUP_PASSPHRASE and says why', async () => {
    const backupDir = join(tempDir('backup-nopass'), 'backups');
    const server = await boot({ env: { BACKUP_DIR: backupDir } });
    try {
      const admin = (await enrollTotp(server)).session.accessToken as string;
      const status = await server.api.get('/system/backups', admin);
      expect(status.body).toMatchObject({
        schedule: { enabled: false, directory: backupDir, nextAt: null },
        last: null,
        lastSucceeded: null,
      });
      expect(status.body.schedule.problem).toMatch(/BACKUP_PASSPHRASE is not set/);
      expect(existsSync(backupDir)).toBe(false);
    } finally {
      await server.dispose();
    }
  });
});
