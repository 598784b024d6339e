import { describe, expect, it } from 'vitest';
import { insertApiKey, insertSite } from '../support/seed';
import { startServer } from '../support/server';
import {
  aardvark,
  alpha,
  betaAardvark,
  orgsOf,
  server,
  sitesOf,
  tokens,
  useImportWorld,
} from '../support/import-world';

// /partner-api over real HTTP with psk_ keys: cursor pages, scopes (403), the partner taken from the key (never
// the body), the one write bucket per key (429 with Retry-After, kept across a restart), the slug and cap
// conflicts, status limits and enrollment key bounds; a user JWT or an organization key is refused.

useImportWorld();

const ALL = [
  'organizations:read',
  'organizations:write',
  'sites:read',
  'sites:write',
  'enrollment-keys:write',
];
async function key(scopes = ALL, token = tokens.admin, rateLimit?: number): Promise<string> {
  const res = await server.api.post(
    '/partner-keys',
    { name: 'k', scopes, ...(rateLimit ? { rateLimit } : {}) },
    token,
  );
  expect(res.status).toBe(201);
  return res.body.key as string;
}
const call = (method: string, path: string, psk: string, body?: unknown) =>
  server.api.request(method, `/partner-api${path}`, { body, headers: { 'x-api-key': psk } });

describe('partner provisioning interface', () => {
  it('creates the tree under the key partner whatever the body says, and lists it in cursor pages', async () => {
    const psk = await key();
    const org = await call('POST', '/organizations', psk, {
      name: 'Provisioned',
      slug: 'provisioned',
      status: 'trial',
      partnerId: 'x',
    });
    expect(org.status).toBe(201);
    expect(org.body).toMatchObject({
      name: 'Provisioned',
      slug: 'provisioned',
      status: 'trial',
      type: 'customer',
    });
    expect(orgsOf(alpha).map((o) => o.id)).toContain(org.body.id);
    const site = await call('POST', '/sites', psk, {
      orgId: org.body.id,
      name: 'Main',
      timezone: 'europe/oslo',
    });
    expect(site.status).toBe(201);
    expect(site.body).toMatchObject({ orgId: org.body.id, name: 'Main', timezone: 'Europe/Oslo' });
    expect(sitesOf(org.body.id)).toHaveLength(1);
    // Pages of one: every organization exactly once, in order, with the last page saying there is no more.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: { body: { data: Array<{ id: string }>; nextCursor: string | null; hasMore: boolean } } =
        await call('GET', `/organizations?limit=1${cursor ? `&cursor=${cursor}` : ''}`, psk);
      seen.push(...page.body.data.map((o) => o.id));
      cursor = page.body.nextCursor;
      if (!page.body.hasMore) break;
    }
    expect(cursor).toBeNull();
    expect(seen.sort()).toEqual(
      orgsOf(alpha)
        .filter((o) => !o.deleted_at)
        .map((o) => o.id)
        .sort(),
    );
    expect(seen).not.toContain(betaAardvark);
    const sites = await call('GET', `/sites?orgId=${org.body.id}`, psk);
    expect(sites.body).toEqual({
      data: [expect.objectContaining({ orgId: org.body.id, siteId: site.body.siteId, name: 'Main' })],
      nextCursor: null,
      hasMore: false,
    });
    expect((await call('GET', '/organizations?limit=501', psk)).status).toBe(400);
    expect((await call('GET', '/organizations?cursor=garbage', psk)).status).toBe(400);
  });

  it("cannot see or write another partner's tree", async () => {
    const psk = await key(ALL, tokens.betaAdmin);
    const list = await call('GET', '/organizations?limit=500', psk);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([betaAardvark]);
    expect((await call('GET', `/sites?orgId=${aardvark}`, psk)).status).toBe(404);
    expect((await call('POST', '/sites', psk, { orgId: aardvark, name: 'Intruder' })).status).toBe(404);
    expect(
      (
        await call('POST', '/enrollment-keys', psk, {
          orgId: aardvark,
          name: 'x',
          maxUsage: 1,
          ttlMinutes: 1,
        })
      ).status,
    ).toBe(404);
    expect(sitesOf(aardvark).map((s) => s.name)).not.toContain('Intruder');
    const siteOfAlpha = insertSite(server, aardvark, 'Alpha only');
    expect(
      (
        await call('POST', '/enrollment-keys', psk, {
          orgId: betaAardvark,
          siteId: siteOfAlpha,
          name: 'x',
          maxUsage: 1,
          ttlMinutes: 1,
        })
      ).status,
    ).toBe(400);
  });

  it('enforces scopes with 403 and refuses user tokens and organization keys', async () => {
    const readOnly = await key(['organizations:read']);
    expect((await call('GET', '/organizations', readOnly)).status).toBe(200);
    const refused = await call('GET', '/sites', readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PARTNER_KEY_SCOPE_REQUIRED');
    expect((await call('POST', '/organizations', readOnly, { name: 'N', slug: 'n' })).status).toBe(403);
    const jwt = await server.api.get('/partner-api/organizations', tokens.admin);
    expect(jwt.status).toBe(401);
    const orgKey = insertApiKey(server, aardvark).key;
    const svc = await call('GET', '/organizations', orgKey);
    expect(svc.status).toBe(401);
    expect(svc.body.error).toBe('A partner provisioning key (psk_) is required');
    expect((await call('GET', '/organizations', 'psk_not-a-real-key')).status).toBe(401);
    // The key is checked before the body is read: a stranger's malformed body is a 401, not a 400.
    const stranger = await server.api.request('POST', '/partner-api/organizations', { rawBody: '{not json' });
    expect(stranger.status).toBe(401);
    const openapi = await server.api.get('/openapi.json');
    expect(openapi.body.paths['/api/v1/partner-api/sites'].post.security).toEqual([{ apiKey: [] }]);
  });

  it('answers slug conflicts, the organization cap, status and enrollment key bounds', async () => {
    const psk = await key();
    expect(
      (await call('POST', '/organizations', psk, { name: 'Dup', slug: 'aardvark-ltd' })).body,
    ).toMatchObject({
      code: 'partner_provisioning_slug_conflict',
    });
    expect(
      (await call('POST', '/organizations', psk, { name: 'S', slug: 's', status: 'suspended' })).status,
    ).toBe(400);
    const live = orgsOf(alpha).filter((o) => !o.deleted_at).length;
    server.context.db.prepare('UPDATE partners SET max_organizations = ? WHERE id = ?').run(live, alpha);
    const capped = await call('POST', '/organizations', psk, { name: 'Capped', slug: 'capped' });
    server.context.db.prepare('UPDATE partners SET max_organizations = NULL WHERE id = ?').run(alpha);
    expect(capped.status).toBe(409);
    expect(capped.body).toMatchObject({ code: 'partner_provisioning_org_limit_reached', retryable: false });
    const base = { orgId: aardvark, name: 'Rollout' };
    for (const bad of [
      { maxUsage: 0, ttlMinutes: 1 },
      { maxUsage: 100001, ttlMinutes: 1 },
      { maxUsage: 1, ttlMinutes: 0 },
      { maxUsage: 1, ttlMinutes: 525601 },
    ])
      expect((await call('POST', '/enrollment-keys', psk, { ...base, ...bad })).status).toBe(400);
    const ok = await call('POST', '/enrollment-keys', psk, { ...base, maxUsage: 100000, ttlMinutes: 525600 });
    expect(ok.status).toBe(201);
    expect(ok.body.key).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(ok.body.expiresAt) - Date.now()).toBeGreaterThan(525599 * 60_000);
    // The key enrolls: the enrollment-keys module stored it with its peppered hash.
    const row = server.context.db
      .prepare('SELECT max_usage, org_id FROM enrollment_keys WHERE id = ?')
      .get(ok.body.id);
    expect(row).toEqual({ max_usage: 100000, org_id: aardvark });
  });

  it('shares one write bucket of min(key limit, 120) per hour per key, kept across a restart', async () => {
    const psk = await key(ALL, tokens.admin, 3);
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/sites', psk, { orgId: aardvark, name: `Bucket ${i}` })).status).toBe(201);
    const limited = await call('POST', '/organizations', psk, { name: 'Over', slug: 'over' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Reads do not draw from the bucket.
    expect((await call('GET', '/organizations', psk)).status).toBe(200);
    // A high key limit is capped at 120.
    const big = await key(ALL, tokens.admin, 100000);
    const first = await call('POST', '/sites', big, { orgId: aardvark, name: 'Big' });
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    // The bucket lives in SQLite, not in the process: a second server on the same data directory (as after a
    // restart) still refuses the key.
    const again = await startServer({ dataDir: server.dataDir });
    try {
      const res = await again.api.request('POST', '/partner-api/sites', {
        body: { orgId: aardvark, name: 'After restart' },
        headers: { 'x-api-key': psk },
      });
      expect(res.status).toBe(429);
    } finally {
      // close, not dispose: the data directory belongs to the suite's server.
      await again.close();
    }
  });
});
