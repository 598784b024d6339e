import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MFA_REQUIRED_MESSAGE } from '../../server/http/authenticate';
import { upgradeFor } from '../../server/modules/agent-versions/upgrade';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  lastAudit,
  ROLES,
  signedToken,
} from '../support/seed';
import { ADMIN, auditSettled } from '../support/server';
import { fetchRaw } from '../support/agent-versions';
import { server, admin, feedPort, builds, list, useRegistry } from '../support/agent-registry';

// Agent versions (spec 3): manual registration by a platform administrator, the sync against an unreachable
// release feed, and downloads of the latest build per platform and architecture.

useRegistry();

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
      rolloutPercent: 100,
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
