import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { MFA_REQUIRED_MESSAGE } from '../../server/http/authenticate';
import { scanAgentBinaries } from '../../server/modules/agent-versions/scan';
import { upgradeFor } from '../../server/modules/agent-versions/upgrade';
import { writeAgentBinary } from '../support/agent-binaries';
import {
  insertApiKey,
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  lastAudit,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, auditSettled, startServer, type TestServer } from '../support/server';

// Agent versions (spec 3): the start-up scan of the binary directory, the registry's read routes, public
// downloads with their checksum header, manual registration by a platform administrator, the release-feed sync
// (unreachable, signed, tampered) and the install script, run for real with sh against the server.

const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A pino logger whose lines land in `lines`. */
function captureLog() {
  const lines: Array<{ level: number; msg: string; [k: string]: unknown }> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

async function fetchRaw(server: TestServer, path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, { redirect: 'manual', ...init });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('agent version registry', () => {
  let server: TestServer;
  let binDir: string;
  let admin: string;
  let feedPort: number;
  const builds: Record<string, { path: string; checksum: string; size: number }> = {};

  beforeAll(async () => {
    binDir = tempDir('gatehouse-bins-');
    builds.linuxOld = writeAgentBinary(binDir, '1.2.0', 'linux', 'amd64');
    builds.linuxNew = writeAgentBinary(binDir, '1.10.0', 'linux', 'amd64', Buffer.alloc(300_000, 7));
    builds.linuxArm = writeAgentBinary(binDir, '1.2.0', 'linux', 'arm64');
    builds.windows = writeAgentBinary(binDir, '1.9.0', 'windows', 'amd64');
    builds.darwinRc = writeAgentBinary(binDir, '2.0.0-rc.1', 'darwin', 'arm64');
    // Junk: not named as a build, a bad architecture, `.exe` on Linux, a bad version, a directory.
    writeFileSync(join(binDir, 'README.txt'), 'drop agent builds here\n');
    writeFileSync(join(binDir, 'gatehouse-agent-1.0.0-linux-x86'), 'x');
    writeFileSync(join(binDir, 'gatehouse-agent-1.0.0-linux-amd64.exe'), 'x');
    writeFileSync(join(binDir, 'gatehouse-agent-latest-linux-amd64'), 'x');
    mkdirSync(join(binDir, 'gatehouse-agent-1.0.0-linux-arm64'));
    feedPort = await closedPort();
    server = await startServer({
      env: {
        AGENT_BINARIES_DIR: binDir,
        AGENT_RELEASE_FEED_URL: `http://127.0.0.1:${feedPort}/repos/gatehouse/agent/releases/latest`,
      },
    });
    admin = await signedToken(server, ADMIN.email);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const list = async () =>
    (await server.api.get('/agent-versions', admin)).body.data as Array<Record<string, any>>;
  const rescan = (log = captureLog().log) =>
    scanAgentBinaries({ db: server.context.db, config: server.config, log }, [binDir]);

  describe('start-up scan', () => {
    it('registers every well-named binary with its SHA-256 and size, newest version first', async () => {
      const res = await server.api.get('/agent-versions', admin);
      expect(res.status).toBe(200);
      const rows = res.body.data as Array<Record<string, any>>;
      expect(rows.map((r) => `${r.version} ${r.platform}/${r.architecture}`)).toEqual([
        '2.0.0-rc.1 darwin/arm64',
        '1.10.0 linux/amd64',
        '1.9.0 windows/amd64',
        '1.2.0 linux/amd64',
        '1.2.0 linux/arm64',
      ]);
      const newest = rows.find((r) => r.version === '1.10.0')!;
      expect(newest).toEqual({
        id: expect.any(String),
        version: '1.10.0',
        platform: 'linux',
        architecture: 'amd64',
        downloadUrl: `${server.url}/api/v1/agent-versions/1.10.0/download?platform=linux&arch=amd64`,
        checksum: builds.linuxNew!.checksum,
        sizeBytes: 300_000,
        source: 'scan',
        releaseNotes: null,
        isLatest: true,
        createdAt: expect.any(String),
      });
      const stored = server.context.db
        .prepare("SELECT file_path, checksum FROM agent_versions WHERE version = '1.9.0'")
        .get() as { file_path: string; checksum: string };
      expect(stored).toEqual({ file_path: builds.windows!.path, checksum: builds.windows!.checksum });
      expect(stored.file_path.endsWith('gatehouse-agent-1.9.0-windows-amd64.exe')).toBe(true);
    });

    it('marks exactly one latest per platform and architecture: the highest version, compared numerically', async () => {
      const latest = (await list())
        .filter((r) => r.isLatest)
        .map((r) => `${r.version} ${r.platform}/${r.architecture}`);
      expect(latest.sort()).toEqual(
        ['1.10.0 linux/amd64', '1.2.0 linux/arm64', '1.9.0 windows/amd64', '2.0.0-rc.1 darwin/arm64'].sort(),
      );
    });

    it('is idempotent and warns once for each file it ignores', async () => {
      const before = await list();
      const { log, warnings } = captureLog();
      const result = await rescan(log);
      expect(result).toEqual({ registered: 0, updated: 0, removed: 0, ignored: 5 });
      expect(await list()).toEqual(before);
      const ignored = warnings().filter((w) => w.msg.startsWith('ignored in the agent binary directory'));
      expect(ignored.map((w) => (w.file as string).split('/').at(-1)).sort()).toEqual(
        [
          'README.txt',
          'gatehouse-agent-1.0.0-linux-amd64.exe',
          'gatehouse-agent-1.0.0-linux-arm64',
          'gatehouse-agent-1.0.0-linux-x86',
          'gatehouse-agent-latest-linux-amd64',
        ].sort(),
      );
      expect(warnings()).toHaveLength(5);
    });

    it('updates the checksum of a changed file (and says so), and unregisters a removed one', async () => {
      const changed = writeAgentBinary(binDir, '1.2.0', 'linux', 'arm64', 'rebuilt arm64 agent\n');
      const { log, warnings } = captureLog();
      expect(await rescan(log)).toMatchObject({ registered: 0, updated: 1, removed: 0 });
      expect(warnings().find((w) => w.msg === 'agent binary changed; checksum updated')).toMatchObject({
        version: '1.2.0',
        platform: 'linux',
        arch: 'arm64',
        previous: builds.linuxArm!.checksum,
        checksum: changed.checksum,
      });
      const arm = (await list()).find((r) => r.platform === 'linux' && r.architecture === 'arm64')!;
      expect(arm.checksum).toBe(changed.checksum);
      builds.linuxArm = changed;

      const extra = writeAgentBinary(binDir, '1.11.0', 'linux', 'amd64');
      expect(await rescan()).toMatchObject({ registered: 1 });
      expect(
        (await server.api.get('/agent-versions/latest?platform=linux&arch=amd64', admin)).body.version,
      ).toBe('1.11.0');
      unlinkSync(extra.path);
      expect(await rescan()).toMatchObject({ removed: 1 });
      const latest = await server.api.get('/agent-versions/latest?platform=linux&arch=amd64', admin);
      expect(latest.body).toMatchObject({ version: '1.10.0', isLatest: true });
      expect((await list()).some((r) => r.version === '1.11.0')).toBe(false);
    });
  });

  describe('GET /agent-versions and /agent-versions/latest', () => {
    it('filters the list by platform and architecture', async () => {
      const res = await server.api.get('/agent-versions?platform=linux&arch=amd64', admin);
      expect(res.body.data.map((r: { version: string }) => r.version)).toEqual(['1.10.0', '1.2.0']);
    });

    it('answers the latest of a pair, of one platform, or of everything', async () => {
      const pair = await server.api.get('/agent-versions/latest?platform=windows&arch=amd64', admin);
      expect(pair.status).toBe(200);
      expect(pair.body).toMatchObject({ version: '1.9.0', platform: 'windows', architecture: 'amd64' });
      const linux = await server.api.get('/agent-versions/latest?platform=linux', admin);
      expect(linux.body).toMatchObject({ version: '1.10.0', architecture: 'amd64' });
      const all = await server.api.get('/agent-versions/latest', admin);
      expect(all.body).toMatchObject({ version: '2.0.0-rc.1', platform: 'darwin' });
    });

    it('answers 404 when nothing is registered for the pair, 400 for unknown words', async () => {
      const none = await server.api.get('/agent-versions/latest?platform=darwin&arch=amd64', admin);
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ error: 'No agent version is registered for darwin/amd64' });
      const bad = await server.api.get('/agent-versions/latest?platform=macos', admin);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        error: 'platform: platform must be windows, darwin or linux',
        code: 'VALIDATION_ERROR',
      });
      const badArch = await server.api.get('/agent-versions?arch=x64', admin);
      expect(badArch.status).toBe(400);
      expect(badArch.body.error).toBe('arch: arch must be amd64 or arm64');
    });

    it('needs devices:read: users with it and API keys with the scope read; others are refused', async () => {
      const { partnerId } = insertPartner(server);
      const orgId = insertOrg(server, partnerId, 'Readers');
      await insertOrgUser(server, orgId, ROLES.orgReadOnly, 'reader@versions.test');
      const reader = await signedToken(server, 'reader@versions.test');
      expect((await server.api.get('/agent-versions', reader)).status).toBe(200);

      const withScope = insertApiKey(server, orgId, ['devices:read']);
      const viaKey = await server.api.request('GET', '/agent-versions/latest', {
        headers: { 'x-api-key': withScope.key },
      });
      expect(viaKey.status).toBe(200);
      expect(viaKey.body.version).toBe('2.0.0-rc.1');
      const without = insertApiKey(server, orgId, ['alerts:read']);
      const refused = await server.api.request('GET', '/agent-versions', {
        headers: { 'x-api-key': without.key },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('API key does not have required permissions');

      expect((await server.api.get('/agent-versions')).status).toBe(401);
    });
  });

  describe('GET /agent-versions/:version/download', () => {
    it('streams the exact bytes with the registered checksum and length, with no credential', async () => {
      const { res, bytes } = await fetchRaw(
        server,
        '/agent-versions/1.10.0/download?platform=linux&arch=amd64',
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-checksum-sha256')).toBe(builds.linuxNew!.checksum);
      expect(res.headers.get('x-agent-version')).toBe('1.10.0');
      expect(res.headers.get('content-length')).toBe('300000');
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toBe(
        'attachment; filename="gatehouse-agent-1.10.0-linux-amd64"',
      );
      expect(bytes.equals(readFileSync(builds.linuxNew!.path))).toBe(true);
    });

    it('accepts a tag-style v prefix', async () => {
      const { res, bytes } = await fetchRaw(
        server,
        '/agent-versions/v1.9.0/download?platform=windows&arch=amd64',
      );
      expect(res.status).toBe(200);
      expect(bytes.toString()).toBe('gatehouse-agent 1.9.0 windows/amd64\n');
    });

    it('answers 404 for a build that is not held and 400 for a bad request', async () => {
      const missing = await server.api.get('/agent-versions/1.9.0/download?platform=linux&arch=amd64');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'Agent version 1.9.0 for linux/amd64 not found' });
      expect(missing.headers.get('x-checksum-sha256')).toBeNull();
      const noQuery = await server.api.get('/agent-versions/1.9.0/download');
      expect(noQuery.status).toBe(400);
      expect(noQuery.body.error).toBe('platform: platform is required');
      const badVersion = await server.api.get(
        '/agent-versions/latest-please/download?platform=linux&arch=amd64',
      );
      expect(badVersion.status).toBe(400);
      expect(badVersion.body.error).toBe('version: version must look like 1.4.0 or 1.4.0-rc.1');
    });

    it('answers HEAD with the headers only', async () => {
      const { res, bytes } = await fetchRaw(
        server,
        '/agent-versions/1.2.0/download?platform=linux&arch=amd64',
        {
          method: 'HEAD',
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-checksum-sha256')).toBe(builds.linuxOld!.checksum);
      expect(res.headers.get('content-length')).toBe(String(builds.linuxOld!.size));
      expect(bytes.length).toBe(0);
    });
  });

  describe('POST /agent-versions', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({
      version: '1.3.0',
      platform: 'linux',
      architecture: 'arm64',
      downloadUrl: 'https://downloads.example.test/gatehouse-agent-1.3.0-linux-arm64',
      checksum: 'AB'.repeat(32),
      ...overrides,
    });

    it('refuses callers that are not platform administrators with an MFA session', async () => {
      const noMfa = await signedToken(server, ADMIN.email, false);
      const res = await server.api.post('/agent-versions', body(), noMfa);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: MFA_REQUIRED_MESSAGE, code: 'MFA_REQUIRED' });

      const { partnerId, adminRoleId } = insertPartner(server);
      await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@versions.test', { orgAccess: 'all' });
      const partnerAdmin = await signedToken(server, 'padmin@versions.test');
      const partner = await server.api.post('/agent-versions', body(), partnerAdmin);
      expect(partner.status).toBe(403);
      expect(partner.body).toEqual({ error: 'System scope required', code: 'SYSTEM_SCOPE_REQUIRED' });
      expect(
        server.context.db.prepare("SELECT count(*) AS n FROM agent_versions WHERE version = '1.3.0'").get(),
      ).toEqual({
        n: 0,
      });
    });

    it('validates the body with clear messages', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { downloadUrl: 'http://downloads.example.test/agent' },
          'downloadUrl: downloadUrl must be an https URL',
        ],
        [{ downloadUrl: 'not a url' }, 'downloadUrl: downloadUrl must be an https URL'],
        [{ checksum: 'abc' }, 'checksum: checksum must be a SHA-256 checksum (64 hexadecimal characters)'],
        [
          { checksum: 'g'.repeat(64) },
          'checksum: checksum must be a SHA-256 checksum (64 hexadecimal characters)',
        ],
        [{ version: 'latest' }, 'version: version must look like 1.4.0 or 1.4.0-rc.1'],
        [{ version: undefined }, 'version: version is required'],
        [{ platform: 'macos' }, 'platform: platform must be windows, darwin or linux'],
        [{ architecture: 'x86' }, 'architecture: architecture must be amd64 or arm64'],
      ];
      for (const [overrides, error] of cases) {
        const res = await server.api.post('/agent-versions', body(overrides), admin);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
      }
    });

    it('registers a build (201), audits it, moves latest forward and never backward', async () => {
      const res = await server.api.post('/agent-versions', body(), admin);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        version: '1.3.0',
        platform: 'linux',
        architecture: 'arm64',
        downloadUrl: 'https://downloads.example.test/gatehouse-agent-1.3.0-linux-arm64',
        checksum: 'ab'.repeat(32),
        sizeBytes: null,
        source: 'manual',
        releaseNotes: null,
        isLatest: true,
        createdAt: expect.any(String),
      });
      const arm = (await list()).filter((r) => r.platform === 'linux' && r.architecture === 'arm64');
      expect(arm.map((r) => [r.version, r.isLatest])).toEqual([
        ['1.3.0', true],
        ['1.2.0', false],
      ]);
      await auditSettled(server);
      const entry = lastAudit(server, 'agent_version.create', res.body.id);
      expect(entry).toMatchObject({ org_id: null, actor_email: ADMIN.email });
      expect(JSON.parse(entry!.details)).toMatchObject({
        version: '1.3.0',
        platform: 'linux',
        architecture: 'arm64',
        checksum: 'ab'.repeat(32),
        isLatest: true,
      });

      // An older build registered later is listed but does not become latest.
      const older = await server.api.post(
        '/agent-versions',
        body({
          version: 'v1.2.5',
          downloadUrl: 'https://downloads.example.test/old',
          releaseNotes: 'hotfix',
        }),
        admin,
      );
      expect(older.status).toBe(201);
      expect(older.body).toMatchObject({ version: '1.2.5', isLatest: false, releaseNotes: 'hotfix' });
      const latest = await server.api.get('/agent-versions/latest?platform=linux&arch=arm64', admin);
      expect(latest.body.version).toBe('1.3.0');
      const flags = server.context.db
        .prepare(
          "SELECT count(*) AS n FROM agent_versions WHERE platform = 'linux' AND architecture = 'arm64' AND is_latest = 1",
        )
        .get();
      expect(flags).toEqual({ n: 1 });
    });

    it('answers 409 for a version already registered for the pair, scanned or manual', async () => {
      const dup = await server.api.post('/agent-versions', body(), admin);
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({
        error: 'Agent version 1.3.0 for linux/arm64 is already registered',
        code: 'AGENT_VERSION_EXISTS',
      });
      const scanned = await server.api.post(
        '/agent-versions',
        body({ version: '1.10.0', architecture: 'amd64' }),
        admin,
      );
      expect(scanned.status).toBe(409);
      const row = server.context.db
        .prepare(
          "SELECT source, checksum FROM agent_versions WHERE version = '1.10.0' AND architecture = 'amd64'",
        )
        .get();
      expect(row).toEqual({ source: 'scan', checksum: builds.linuxNew!.checksum });
    });

    it('redirects the download of a build held elsewhere, with its checksum', async () => {
      const { res } = await fetchRaw(server, '/agent-versions/1.3.0/download?platform=linux&arch=arm64');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(
        'https://downloads.example.test/gatehouse-agent-1.3.0-linux-arm64',
      );
      expect(res.headers.get('x-checksum-sha256')).toBe('ab'.repeat(32));
    });

    it('offers heartbeats the latest build of their platform, never a downgrade', () => {
      const offer = (agentVersion: string) =>
        upgradeFor(server.context, { osType: 'linux', architecture: 'arm64', agentVersion });
      expect(offer('1.2.0')).toEqual({
        version: '1.3.0',
        downloadUrl: 'https://downloads.example.test/gatehouse-agent-1.3.0-linux-arm64',
        checksum: 'ab'.repeat(32),
      });
      expect(offer('1.3.0')).toBeNull();
      expect(offer('1.4.0')).toBeNull();
      expect(
        upgradeFor(server.context, { osType: 'linux', architecture: 'x64', agentVersion: '1.2.0' }),
      ).toEqual({
        version: '1.10.0',
        downloadUrl: `${server.url}/api/v1/agent-versions/1.10.0/download?platform=linux&arch=amd64`,
        checksum: builds.linuxNew!.checksum,
      });
    });
  });

  describe('POST /agent-versions/sync-github', () => {
    it('answers 503 RELEASE_FEED_UNREACHABLE when the feed cannot be reached, registering nothing', async () => {
      const before = await list();
      const res = await server.api.post('/agent-versions/sync-github', {}, admin);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'The release feed could not be reached',
        code: 'RELEASE_FEED_UNREACHABLE',
        feedUrl: `http://127.0.0.1:${feedPort}/repos/gatehouse/agent/releases/latest`,
        reason: 'ECONNREFUSED',
      });
      expect(await list()).toEqual(before);
    });

    it('is for platform administrators with an MFA session', async () => {
      const noMfa = await signedToken(server, ADMIN.email, false);
      const refused = await server.api.post('/agent-versions/sync-github', {}, noMfa);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('MFA_REQUIRED');
      const { partnerId } = insertPartner(server);
      const orgId = insertOrg(server, partnerId, 'Syncers');
      await insertOrgUser(server, orgId, ROLES.orgAdmin, 'orgadmin@versions.test');
      const res = await server.api.post(
        '/agent-versions/sync-github',
        {},
        await signedToken(server, 'orgadmin@versions.test'),
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('SYSTEM_SCOPE_REQUIRED');
    });
  });

  describe('GET /agents/download/:os/:arch', () => {
    it('streams the latest build of the pair with its checksum', async () => {
      const { res, bytes } = await fetchRaw(server, '/agents/download/linux/amd64');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-checksum-sha256')).toBe(builds.linuxNew!.checksum);
      expect(res.headers.get('x-agent-version')).toBe('1.10.0');
      expect(bytes.equals(readFileSync(builds.linuxNew!.path))).toBe(true);
    });

    it('answers 404 when the pair has no build and 400 for an unknown os or arch', async () => {
      const none = await server.api.get('/agents/download/darwin/amd64');
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ error: 'No agent build is available for darwin/amd64' });
      const os = await server.api.get('/agents/download/solaris/amd64');
      expect(os.status).toBe(400);
      expect(os.body.error).toBe('os: os must be windows, darwin or linux');
      const arch = await server.api.get('/agents/download/linux/x86');
      expect(arch.status).toBe(400);
      expect(arch.body.error).toBe('arch: arch must be amd64 or arm64');
    });
  });
});

// ---------------------------------------------------------------------------------------------- release feed

interface FeedState {
  status: number;
  release: unknown;
  manifest: Buffer;
  signature: Buffer;
  requests: string[];
}

/** A stand-in for GitHub's release API and asset host on a local port. */
async function startFeed(): Promise<{ url: string; state: FeedState; close: () => Promise<void> }> {
  const state: FeedState = {
    status: 200,
    release: {},
    manifest: Buffer.alloc(0),
    signature: Buffer.alloc(0),
    requests: [],
  };
  const http: Server = createHttpServer((req, res) => {
    state.requests.push(req.url ?? '');
    if (req.url === '/releases/latest') {
      res.writeHead(state.status, { 'content-type': 'application/json' }).end(JSON.stringify(state.release));
    } else if (req.url === '/assets/manifest.json') {
      res.writeHead(200).end(state.manifest);
    } else if (req.url === '/assets/manifest.json.sig') {
      res.writeHead(200).end(state.signature);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  return { url, state, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

const SUM_LINUX = '1'.repeat(64);
const SUM_WINDOWS = '2'.repeat(64);

function publishRelease(
  feed: { url: string; state: FeedState },
  key: KeyObject,
  overrides: { version?: string; tag?: string; linuxSum?: string; assets?: string[] } = {},
) {
  const version = overrides.version ?? '3.1.0';
  const manifest = Buffer.from(
    JSON.stringify({
      version,
      artifacts: [
        {
          platform: 'linux',
          arch: 'amd64',
          file: `gatehouse-agent-${version}-linux-amd64`,
          sha256: overrides.linuxSum ?? SUM_LINUX,
          size: 1234,
        },
        {
          platform: 'windows',
          arch: 'amd64',
          file: `gatehouse-agent-${version}-windows-amd64.exe`,
          sha256: SUM_WINDOWS,
        },
      ],
    }),
  );
  const names = overrides.assets ?? [
    `gatehouse-agent-${version}-linux-amd64`,
    `gatehouse-agent-${version}-windows-amd64.exe`,
    'gatehouse-agent-manifest.json',
    'gatehouse-agent-manifest.json.sig',
  ];
  const asset = (name: string) =>
    name === 'gatehouse-agent-manifest.json'
      ? `${feed.url}/assets/manifest.json`
      : name === 'gatehouse-agent-manifest.json.sig'
        ? `${feed.url}/assets/manifest.json.sig`
        : `https://github.example.test/releases/download/v${version}/${name}`;
  feed.state.status = 200;
  feed.state.release = {
    tag_name: overrides.tag ?? `v${version}`,
    body: `Release ${version}`,
    assets: names.map((name) => ({ name, browser_download_url: asset(name) })),
  };
  feed.state.manifest = manifest;
  feed.state.signature = Buffer.from(sign(null, manifest, key).toString('base64'));
}

describe('sync-github with a signed release feed', () => {
  let server: TestServer;
  let feed: Awaited<ReturnType<typeof startFeed>>;
  let admin: string;
  const trusted = generateKeyPairSync('ed25519');
  const rotated = generateKeyPairSync('ed25519');
  const stranger = generateKeyPairSync('ed25519');

  beforeAll(async () => {
    feed = await startFeed();
    // Two keys overlap during a rotation: one as PEM-free base64 SPKI, one as the raw 32 bytes.
    const spki = trusted.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const raw = rotated.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    server = await startServer({
      env: {
        AGENT_BINARIES_DIR: tempDir('gatehouse-bins-'),
        AGENT_RELEASE_FEED_URL: `${feed.url}/releases/latest`,
        RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS: `${spki}, ${raw}`,
      },
    });
    admin = await signedToken(server, ADMIN.email);
  });
  afterAll(async () => {
    await server.dispose();
    await feed.close();
  });

  const sync = () => server.api.post('/agent-versions/sync-github', {}, admin);
  const count = () =>
    (server.context.db.prepare('SELECT count(*) AS n FROM agent_versions').get() as { n: number }).n;

  it('refuses a manifest signed by an unknown key and registers nothing', async () => {
    publishRelease(feed, stranger.privateKey);
    const res = await sync();
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: 'The artifact manifest of release v3.1.0 is not signed by a trusted key',
      code: 'RELEASE_MANIFEST_UNTRUSTED',
    });
    expect(count()).toBe(0);
  });

  it('refuses a release without a signed manifest', async () => {
    publishRelease(feed, trusted.privateKey, {
      assets: ['gatehouse-agent-3.1.0-linux-amd64', 'gatehouse-agent-3.1.0-windows-amd64.exe'],
    });
    const res = await sync();
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('RELEASE_MANIFEST_MISSING');
    expect(count()).toBe(0);
  });

  it('refuses a manifest that disagrees with its release or lists a binary the release lacks', async () => {
    publishRelease(feed, trusted.privateKey, { tag: 'v3.2.0' });
    const tag = await sync();
    expect(tag.status).toBe(502);
    expect(tag.body).toMatchObject({
      error: 'The artifact manifest of release v3.2.0 names version 3.1.0',
      code: 'RELEASE_MANIFEST_INVALID',
    });
    publishRelease(feed, trusted.privateKey, {
      assets: [
        'gatehouse-agent-3.1.0-linux-amd64',
        'gatehouse-agent-manifest.json',
        'gatehouse-agent-manifest.json.sig',
      ],
    });
    const missing = await sync();
    expect(missing.status).toBe(502);
    expect(missing.body.error).toBe(
      'The artifact manifest of release v3.1.0 lists gatehouse-agent-3.1.0-windows-amd64.exe, which the release does not hold',
    );
    expect(count()).toBe(0);
  });

  it('answers 502 when the feed answers with an error status or not with a release', async () => {
    feed.state.status = 404;
    const res = await sync();
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: 'The release feed answered HTTP 404',
      code: 'RELEASE_FEED_ERROR',
    });
    feed.state.status = 200;
    feed.state.release = { hello: 'world' };
    const junk = await sync();
    expect(junk.status).toBe(502);
    expect(junk.body.code).toBe('RELEASE_FEED_INVALID');
  });

  it('registers every build of a release signed by a pinned key, once', async () => {
    publishRelease(feed, trusted.privateKey);
    const res = await sync();
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('3.1.0');
    expect(res.body.unchanged).toBe(0);
    expect(
      res.body.registered.map((v: Record<string, unknown>) => [
        v.platform,
        v.architecture,
        v.checksum,
        v.source,
        v.isLatest,
      ]),
    ).toEqual([
      ['linux', 'amd64', SUM_LINUX, 'github', true],
      ['windows', 'amd64', SUM_WINDOWS, 'github', true],
    ]);
    expect(res.body.registered[0]).toMatchObject({
      downloadUrl: 'https://github.example.test/releases/download/v3.1.0/gatehouse-agent-3.1.0-linux-amd64',
      sizeBytes: 1234,
      releaseNotes: 'Release 3.1.0',
    });
    await auditSettled(server);
    const entry = server.context.db
      .prepare("SELECT org_id, details FROM audit_logs WHERE action = 'agent_version.sync'")
      .get() as { org_id: string | null; details: string };
    expect(entry.org_id).toBeNull();
    expect(JSON.parse(entry.details)).toMatchObject({ version: '3.1.0', registered: 2, unchanged: 0 });

    const again = await sync();
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ version: '3.1.0', registered: [], unchanged: 2 });
    expect(count()).toBe(2);
  });

  it('accepts the rotated key, and refuses a release whose checksum differs from the registered build', async () => {
    publishRelease(feed, rotated.privateKey, { linuxSum: '3'.repeat(64) });
    const res = await sync();
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Agent version 3.1.0 for linux/amd64 is already registered with another checksum',
      code: 'RELEASE_CHECKSUM_CONFLICT',
      registered: SUM_LINUX,
      published: '3'.repeat(64),
    });
    publishRelease(feed, rotated.privateKey, { version: '3.2.0' });
    const next = await sync();
    expect(next.status).toBe(200);
    expect(next.body.registered).toHaveLength(2);
    const latest = await server.api.get('/agent-versions/latest?platform=linux&arch=amd64', admin);
    expect(latest.body.version).toBe('3.2.0');
  });
});

describe('sync-github without a trust anchor', () => {
  let feed: Awaited<ReturnType<typeof startFeed>>;
  const key = generateKeyPairSync('ed25519');
  beforeAll(async () => {
    feed = await startFeed();
    publishRelease(feed, key.privateKey);
  });
  afterAll(async () => {
    await feed.close();
  });

  it('contacts the feed outside production, then refuses to register unsigned-verifiable builds', async () => {
    const server = await startServer({ env: { AGENT_RELEASE_FEED_URL: `${feed.url}/releases/latest` } });
    try {
      feed.state.requests.length = 0;
      const res = await server.api.post(
        '/agent-versions/sync-github',
        {},
        await signedToken(server, ADMIN.email),
      );
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error:
          'Release artifacts cannot be verified: RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS is not configured',
        code: 'RELEASE_TRUST_ANCHOR_MISSING',
      });
      expect(feed.state.requests).toEqual(['/releases/latest']);
      expect(server.context.db.prepare('SELECT count(*) AS n FROM agent_versions').get()).toEqual({ n: 0 });
    } finally {
      await server.dispose();
    }
  });

  it('in production, refuses before anything is fetched', async () => {
    const server = await startServer({
      env: {
        NODE_ENV: 'production',
        ENROLLMENT_KEY_PEPPER: 'a-production-pepper-of-some-length',
        AGENT_RELEASE_FEED_URL: `${feed.url}/releases/latest`,
      },
    });
    try {
      feed.state.requests.length = 0;
      const res = await server.api.post(
        '/agent-versions/sync-github',
        {},
        await signedToken(server, ADMIN.email),
      );
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('RELEASE_TRUST_ANCHOR_MISSING');
      expect(feed.state.requests).toEqual([]);
    } finally {
      await server.dispose();
    }
  });

  it('a trust anchor that is not an Ed25519 key stops the server at start', async () => {
    const dataDir = tempDir('gatehouse-badkey-');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      format: 'pem',
      type: 'spki',
    });
    for (const value of ['not-a-key!', rsa.toString()]) {
      const start = startServer({ dataDir, env: { RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS: value } });
      await expect(start).rejects.toBeInstanceOf(ConfigError);
      await expect(start).rejects.toThrow(
        /RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS entry 1 is not an Ed25519 public key/,
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------- install.sh

function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: options.env, cwd: options.cwd, timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

describe('GET /agents/install.sh', () => {
  let server: TestServer;
  let binDir: string;
  let script: string;
  let fakeBin: string;
  const hasCurl = existsSync('/usr/bin/curl') || existsSync('/bin/curl');

  // The agent stand-in records each invocation, so the test sees exactly how the script enrolled it.
  const agentScript = (tag: string) => `#!/bin/sh\necho "${tag} $*" >> "$(dirname "$0")/invocations.log"\n`;

  beforeAll(async () => {
    binDir = tempDir('gatehouse-bins-');
    writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', agentScript('amd64'));
    writeAgentBinary(binDir, '4.0.0', 'darwin', 'arm64', agentScript('darwin-arm64'));
    server = await startServer({ env: { AGENT_BINARIES_DIR: binDir } });
    const res = await fetch(`${server.url}/api/v1/agents/install.sh`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8');
    script = join(tempDir('gatehouse-script-'), 'install.sh');
    writeFileSync(script, await res.text());
    // uname is replaced so the test decides which platform the script believes it runs on.
    fakeBin = tempDir('gatehouse-fakebin-');
    writeFileSync(
      join(fakeBin, 'uname'),
      '#!/bin/sh\ncase "$1" in -s) echo "${FAKE_KERNEL:-Linux}" ;; -m) echo "${FAKE_MACHINE:-x86_64}" ;; esac\n',
    );
    chmodSync(join(fakeBin, 'uname'), 0o755);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const env = (extra: Record<string, string> = {}) => ({
    PATH: `${fakeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: tmpdir(),
    ...extra,
  });

  it('is valid POSIX sh that points at this server', async () => {
    const text = readFileSync(script, 'utf8');
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(text).toContain(`GATEHOUSE_ORIGIN='${server.url}'`);
    expect(await run('sh', ['-n', script])).toMatchObject({ code: 0, stderr: '' });
    expect(await run('dash', ['-n', script])).toMatchObject({ code: 0 });
    expect(await run('bash', ['--posix', '-n', script])).toMatchObject({ code: 0 });
  });

  it("refuses with the spec's message when only one of SERVER_URL and ENROLLMENT_KEY is given", async () => {
    const installDir = tempDir('gatehouse-install-');
    const cases: Array<[string[], Record<string, string>]> = [
      [['--server', server.url], {}],
      [['--enrollment-key', 'k'.repeat(64)], {}],
      [[], { SERVER_URL: server.url }],
      [[], { ENROLLMENT_KEY: 'k'.repeat(64) }],
    ];
    for (const [args, extra] of cases) {
      const res = await run('sh', [script, ...args, '--install-dir', installDir], { env: env(extra) });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        'gatehouse-install: SERVER_URL and ENROLLMENT_KEY must be provided together',
      );
    }
    expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
    const unknown = await run('sh', [script, '--bogus'], { env: env() });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'gatehouse-install: unknown option: --bogus (see --help)\n',
    });
  });

  it.runIf(hasCurl)(
    'downloads, verifies, installs and enrolls the agent, then installs its service',
    async () => {
      const installDir = join(tempDir('gatehouse-install-'), 'bin');
      const key = 'e'.repeat(64);
      const res = await run(
        'sh',
        [
          script,
          '--server',
          server.url,
          '--enrollment-key',
          key,
          '--enrollment-secret',
          's3cret',
          '--install-dir',
          installDir,
        ],
        { env: env() },
      );
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(
        `Downloading the Gatehouse agent for linux/amd64 from ${server.url}/api/v1/agents/download/linux/amd64`,
      );
      expect(res.stdout).toContain('Checksum verified');
      const installed = join(installDir, 'gatehouse-agent');
      expect(readFileSync(installed, 'utf8')).toBe(agentScript('amd64'));
      expect(readFileSync(join(installDir, 'invocations.log'), 'utf8')).toBe(
        `amd64 enroll ${key} --server ${server.url} --enrollment-secret s3cret\namd64 service install\n`,
      );
    },
  );

  it.runIf(hasCurl)('picks the build for the detected platform and passes --quiet through', async () => {
    const installDir = tempDir('gatehouse-install-');
    const res = await run('sh', [script, '--quiet', '--install-dir', installDir], {
      env: env({
        FAKE_KERNEL: 'Darwin',
        FAKE_MACHINE: 'arm64',
        SERVER_URL: server.url,
        ENROLLMENT_KEY: 'abc',
      }),
    });
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(installDir, 'invocations.log'), 'utf8')).toBe(
      `darwin-arm64 enroll abc --server ${server.url} --quiet\ndarwin-arm64 service install --quiet\n`,
    );
  });

  it.runIf(hasCurl)(
    'installs without enrolling when neither SERVER_URL nor ENROLLMENT_KEY is given',
    async () => {
      const installDir = tempDir('gatehouse-install-');
      const res = await run('sh', [script, '--install-dir', installDir], { env: env() });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('the agent is installed but not enrolled');
      expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(true);
      expect(existsSync(join(installDir, 'invocations.log'))).toBe(false);
    },
  );

  it.runIf(hasCurl)(
    'refuses a download whose bytes do not match the checksum, installing nothing',
    async () => {
      // The file changes on disk after registration: the server still announces the registered checksum.
      writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', `${agentScript('amd64')}# tampered\n`);
      try {
        const installDir = tempDir('gatehouse-install-');
        const res = await run(
          'sh',
          [script, '--server', server.url, '--enrollment-key', 'abc', '--install-dir', installDir],
          {
            env: env(),
          },
        );
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(
          /^gatehouse-install: checksum mismatch: expected [0-9a-f]{64}, got [0-9a-f]{64}; nothing was installed\n$/,
        );
        expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
      } finally {
        writeAgentBinary(binDir, '4.0.0', 'linux', 'amd64', agentScript('amd64'));
      }
    },
  );

  it.runIf(hasCurl)('refuses when the announced checksum is not the one the operator pinned', async () => {
    const installDir = tempDir('gatehouse-install-');
    const res = await run('sh', [script, '--checksum', 'F'.repeat(64), '--install-dir', installDir], {
      env: env(),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`not the pinned ${'f'.repeat(64)}; nothing was installed`);
    expect(existsSync(join(installDir, 'gatehouse-agent'))).toBe(false);
  });

  it.runIf(hasCurl)('stops with a clear message when the server has no build for the platform', async () => {
    const res = await run('sh', [script, '--install-dir', tempDir('gatehouse-install-')], {
      env: env({ FAKE_MACHINE: 'aarch64' }),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`download failed: ${server.url}/api/v1/agents/download/linux/arm64`);
    const unsupported = await run('sh', [script], { env: env({ FAKE_MACHINE: 'i686' }) });
    expect(unsupported.stderr).toBe(
      'gatehouse-install: unsupported architecture: i686 (agents are built for amd64 and arm64)\n',
    );
  });
});
