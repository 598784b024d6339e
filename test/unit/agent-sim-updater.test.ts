import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHttp } from '../../agent-sim/transport';
import {
  compareVersions,
  downloadVerified,
  RefusedOffers,
  sha256Hex,
  versionOfDownload,
} from '../../agent-sim/updater';

// Agent self-update (spec 3, Versioning): the agent switches only to bytes whose SHA-256 matches the offer.

const BUILD = Buffer.from('gatehouse-agent 2.0.0 linux/amd64\n');
const CHECKSUM = createHash('sha256').update(BUILD).digest('hex');

describe('downloadVerified', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/api/v1/agent-versions/2.0.0/download')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-agent-version': '2.0.0' });
        res.end(BUILD);
      } else if (req.url === '/files/gatehouse-agent-2.1.0-linux-amd64') {
        res.end(BUILD);
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"Agent version not found"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('accepts bytes whose checksum matches, and names their version', async () => {
    const http = new AgentHttp(base);
    const ok = await downloadVerified(
      http,
      `${base}/api/v1/agent-versions/2.0.0/download?platform=linux&arch=amd64`,
      CHECKSUM,
      'tok',
    );
    expect(ok).toMatchObject({ ok: true, checksum: CHECKSUM, version: '2.0.0' });
    // The offered checksum is compared case-insensitively.
    expect(
      (
        await downloadVerified(
          http,
          `${base}/files/gatehouse-agent-2.1.0-linux-amd64`,
          CHECKSUM.toUpperCase(),
          undefined,
        )
      ).ok,
    ).toBe(true);
  });

  it('refuses a mismatch and says what it got', async () => {
    const other = 'a'.repeat(64);
    const refused = await downloadVerified(
      new AgentHttp(base),
      `${base}/api/v1/agent-versions/2.0.0/download`,
      other,
      undefined,
    );
    expect(refused).toEqual({
      ok: false,
      reason: 'checksum_mismatch',
      message: `checksum mismatch: expected ${other}, got ${CHECKSUM}`,
      actual: CHECKSUM,
    });
  });

  it('reports failed downloads and unusable offers without throwing', async () => {
    const http = new AgentHttp(base);
    expect(await downloadVerified(http, `${base}/nothing`, CHECKSUM, undefined)).toMatchObject({
      ok: false,
      reason: 'download_failed',
      message: 'download answered HTTP 404',
    });
    expect(await downloadVerified(http, 'http://127.0.0.1:1/x', CHECKSUM, undefined)).toMatchObject({
      ok: false,
      reason: 'download_failed',
    });
    expect(await downloadVerified(http, `${base}/files/x`, 'not-a-digest', undefined)).toMatchObject({
      ok: false,
      reason: 'bad_checksum',
    });
    const flaky = new AgentHttp(base, () => true);
    expect(
      await downloadVerified(flaky, `${base}/api/v1/agent-versions/2.0.0/download`, CHECKSUM, undefined),
    ).toMatchObject({
      ok: false,
      reason: 'download_failed',
      message: 'download failed: simulated network failure',
    });
  });
});

describe('update bookkeeping', () => {
  it('reads the version of a build from the header, the registry path or the file name', () => {
    const none = new Headers();
    expect(
      versionOfDownload(
        'http://x/api/v1/agent-versions/1.4.2/download?platform=linux',
        new Headers({ 'X-Agent-Version': '1.5.0' }),
      ),
    ).toBe('1.5.0');
    expect(versionOfDownload('http://x/api/v1/agent-versions/1.4.2/download?platform=linux', none)).toBe(
      '1.4.2',
    );
    expect(versionOfDownload('https://cdn.example/gatehouse-agent-2.0.0-rc.1-darwin-arm64', none)).toBe(
      '2.0.0-rc.1',
    );
    expect(
      versionOfDownload(
        'https://cdn.example/dl?id=7',
        new Headers({
          'content-disposition': 'attachment; filename="gatehouse-agent-3.1.4-windows-amd64.exe"',
        }),
      ),
    ).toBe('3.1.4');
    expect(versionOfDownload('https://cdn.example/blob', none)).toBeNull();
  });

  it('compares versions numerically, pre-releases before releases', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBeGreaterThan(0);
    expect(compareVersions('1.2.0-rc.1', '1.2.0')).toBeLessThan(0);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.0.0', '1.0.1')).toBeLessThan(0);
  });

  it('does not retry a refused build in a tight loop: the pause grows and is per version and checksum', () => {
    const offers = new RefusedOffers(60_000, 3_600_000);
    const t0 = 1_000_000;
    expect(offers.blocked('1.1.0', 'ab', t0)).toBe(false);
    expect(offers.refuse('1.1.0', 'ab', t0)).toBe(60_000);
    expect(offers.blocked('1.1.0', 'AB', t0 + 59_000)).toBe(true);
    expect(offers.blocked('1.1.0', 'cd', t0)).toBe(false);
    expect(offers.blocked('1.1.0', 'ab', t0 + 60_000)).toBe(false);
    expect(offers.refuse('1.1.0', 'ab', t0 + 60_000)).toBe(120_000);
    for (let i = 0; i < 10; i++) offers.refuse('1.1.0', 'ab', t0);
    expect(offers.refuse('1.1.0', 'ab', t0)).toBe(3_600_000);
  });

  it('hashes like sha256sum', () => {
    expect(sha256Hex(Buffer.from(''))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});
