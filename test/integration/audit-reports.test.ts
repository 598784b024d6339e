import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CATEGORIES, AUDIT_COMPLIANCE_ACTIONS, AUDIT_SECURITY_ACTIONS } from '../../server/contract';
import { auditWorld, entry, writeEntries, type AuditWorld } from '../support/audit-world';

// The reports and stats of the /audit catalog: shapes that chart (every day and key present), the spec's security
// and compliance action lists, ranges, and scoping.

let w: AuditWorld;
const today = new Date().toISOString().slice(0, 10);
beforeAll(async () => {
  w = await auditWorld();
  const { orgA, orgB, orgX, ids } = w;
  await writeEntries(w.server, [
    entry(orgA, ids.orgAdmin, {
      actorEmail: 'admin@contoso.test',
      action: 'user.login',
      resourceType: 'user',
    }),
    entry(orgA, ids.orgAdmin, {
      actorEmail: 'admin@contoso.test',
      action: 'user.login.failed',
      result: 'failure',
    }),
    entry(orgA, ids.orgAdmin, { actorEmail: 'admin@contoso.test', action: 'device.delete' }),
    entry(orgA, ids.orgReader, {
      actorEmail: 'reader@contoso.test',
      action: 'data.export',
      resourceType: 'audit_log',
    }),
    entry(orgA, ids.orgReader, {
      actorEmail: 'reader@contoso.test',
      action: 'policy.update',
      result: 'denied',
    }),
    entry(orgB, ids.partnerAdmin, { actorEmail: 'boss@acme.test', action: 'script.execute' }),
    entry(orgX, ids.otherAdmin, { actorEmail: 'boss@other.test', action: 'user.login' }),
    entry(orgX, ids.otherAdmin, { actorEmail: 'boss@other.test', action: 'data.export' }),
  ]);
}, 60_000);
afterAll(() => w.server.dispose());

const get = (path: string, token = w.tokens.partnerAdmin) => w.server.api.get(path, token);

describe('reports', () => {
  it('user activity: per actor, counts by category, failures, first and last seen, most active first', async () => {
    const res = await get(`/audit/reports/user-activity?orgId=${w.orgA}`);
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    expect(Date.parse(res.body.range.to) - Date.parse(res.body.range.from)).toBe(30 * 24 * 3600 * 1000);
    const [admin, reader] = res.body.users;
    expect(admin).toMatchObject({
      actorId: w.ids.orgAdmin,
      actorType: 'user',
      name: 'admin',
      email: 'admin@contoso.test',
      role: 'Organization Administrator',
      total: 3,
      failures: 1,
      denied: 0,
      firstSeenAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(admin.byCategory).toEqual({ ...zero(), authentication: 2, device: 1 });
    expect(reader).toMatchObject({
      total: 2,
      denied: 1,
      byCategory: { ...zero(), compliance: 1, policy: 1 },
    });
    expect(res.body.users).toHaveLength(2);
  });

  it("security events: the spec's actions per day and per action, with the latest entries", async () => {
    const res = await get('/audit/reports/security-events?latest=2');
    expect(res.status).toBe(200);
    expect(res.body.actions).toEqual([...AUDIT_SECURITY_ACTIONS]);
    // Acme's organizations only: Initech's sign-in is not counted.
    expect(res.body.total).toBe(3);
    expect(res.body.failures).toBe(2);
    expect(res.body.byDay).toHaveLength(31);
    const day = res.body.byDay.find((d: { day: string }) => d.day === today);
    expect(day).toMatchObject({ total: 3, failures: 2, counts: { 'user.login': 1, 'user.login.failed': 1 } });
    expect(Object.keys(day.counts)).toEqual([...AUDIT_SECURITY_ACTIONS]);
    expect(res.body.byAction.find((a: { action: string }) => a.action === 'policy.update')).toEqual({
      action: 'policy.update',
      count: 1,
      failures: 1,
    });
    expect(res.body.latest.map((e: { action: string }) => e.action)).toEqual([
      'policy.update',
      'user.login.failed',
    ]);
    expect((await get('/audit/reports/security-events?latest=0')).status).toBe(400);
  });

  it("compliance: the spec's actions grouped, with results, actors and the last time", async () => {
    const res = await get('/audit/reports/compliance');
    expect(res.body.actions).toEqual([...AUDIT_COMPLIANCE_ACTIONS]);
    expect(res.body.total).toBe(4);
    expect(res.body.groups).toHaveLength(AUDIT_COMPLIANCE_ACTIONS.length);
    const group = (action: string) => res.body.groups.find((g: { action: string }) => g.action === action);
    expect(group('data.export')).toMatchObject({ category: 'compliance', count: 1, success: 1, actors: 1 });
    expect(group('policy.update')).toMatchObject({ category: 'policy', count: 1, denied: 1 });
    expect(group('script.execute')).toMatchObject({ category: 'automation', count: 1 });
    expect(group('organization.update')).toMatchObject({ category: 'organization', count: 0, lastAt: null });
    expect(res.body.byDay.find((d: { day: string }) => d.day === today)).toEqual({ day: today, total: 4 });
  });

  it('stats: totals by category, result and day, and the top actions, for the range asked', async () => {
    const from = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    const res = await get(
      `/audit/stats?orgId=${w.orgA}&from=${encodeURIComponent(from)}`,
      w.tokens.orgReader,
    );
    expect(res.status).toBe(200);
    expect(res.body.range.from).toBe(from);
    expect(res.body.byDay).toHaveLength(3);
    expect(res.body.byResult).toMatchObject({ failure: 1, denied: 1 });
    expect(Object.keys(res.body.byCategory)).toEqual([...AUDIT_CATEGORIES]);
    expect(res.body.total).toBe(
      Object.values(res.body.byCategory as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    expect(res.body.topActions[0]).toEqual({ action: expect.any(String), count: expect.any(Number) });
  });

  it('refuses a reversed or too long range, and an organization outside the scope', async () => {
    const a = encodeURIComponent('2026-01-02T00:00:00Z');
    const b = encodeURIComponent('2026-01-01T00:00:00Z');
    expect(await get(`/audit/stats?from=${a}&to=${b}`)).toMatchObject({
      status: 400,
      body: { error: 'from must be before to' },
    });
    const long = encodeURIComponent('2024-01-01T00:00:00Z');
    expect((await get(`/audit/reports/compliance?from=${long}&to=${a}`)).body.error).toBe(
      'The range may span at most 366 days',
    );
    for (const path of ['user-activity', 'security-events', 'compliance'])
      expect((await get(`/audit/reports/${path}?orgId=${w.orgX}`)).status).toBe(404);
    expect((await get(`/audit/stats?orgId=${w.orgB}`, w.tokens.orgReader)).status).toBe(404);
  });

  it("another partner's reports count only its own entries", async () => {
    const res = await get('/audit/reports/user-activity', w.tokens.otherAdmin);
    expect(res.body.users.map((u: { email: string }) => u.email)).toEqual(['boss@other.test']);
    const stats = await get('/audit/stats', w.tokens.otherAdmin);
    expect(stats.body.total).toBe(2);
  });
});

const zero = () => Object.fromEntries(AUDIT_CATEGORIES.map((c) => [c, 0]));
