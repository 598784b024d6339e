import { readFileSync, unlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeAgentBinary } from '../support/agent-binaries';
import { insertApiKey, insertOrg, insertOrgUser, insertPartner, ROLES, signedToken } from '../support/seed';
import { captureLog, fetchRaw } from '../support/agent-versions';
import { server, binDir, admin, builds, list, rescan, useRegistry } from '../support/agent-registry';

// Agent versions (spec 3): the start-up scan of the binary directory, the registry's read routes and public
// downloads with their checksum header.

useRegistry();

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
      rolloutPercent: 100,
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
