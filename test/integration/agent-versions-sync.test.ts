import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { signedToken } from '../support/seed';
import { ADMIN, auditSettled, startServer, type TestServer } from '../support/server';
import { useTempDirs } from '../support/agent-versions';
import { startFeed, SUM_LINUX, SUM_WINDOWS, publishRelease } from '../support/release-feed';

// Agent versions (spec 3): the release-feed sync against a signed feed (trusted, rotated, tampered) and without a
// trust anchor.

const tempDir = useTempDirs();

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
