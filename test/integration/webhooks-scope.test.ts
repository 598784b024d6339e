import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSocketFor } from '../support/console-client';
import {
  insertApiKey,
  insertOrg,
  insertOrgRole,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  restrictOrgUser,
  ROLES,
  signedToken,
} from '../support/seed';
import { startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// Tenant isolation of /webhooks (spec 2 Authentication: organization scope works in its own organization, partner
// and system scope name it, partner access is verified). Partner P1 owns A1 and A2, partner P2 owns B1; each
// organization has one webhook. Every caller lists exactly the webhooks of the organizations it covers and gets
// 404 for any other webhook, whatever the route; a console socket hears only its own organizations' deliveries.

let world: WebhookWorld;
const hooks: Record<'a1' | 'a2' | 'b1', string> = { a1: '', a2: '', b1: '' };
const orgs: Record<'a1' | 'a2' | 'b1', string> = { a1: '', a2: '', b1: '' };
const tokens: Record<string, string> = {};
let apiKey = '';

beforeAll(async () => {
  world = await startWebhookWorld();
  const { server } = world;
  const p1 = insertPartner(server, { name: 'P1' });
  const p2 = insertPartner(server, { name: 'P2' });
  orgs.a1 = insertOrg(server, p1.partnerId, 'A1');
  orgs.a2 = insertOrg(server, p1.partnerId, 'A2');
  orgs.b1 = insertOrg(server, p2.partnerId, 'B1');
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'all@p1.test', { orgAccess: 'all' });
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'selected@p1.test', {
    orgAccess: 'selected',
    orgIds: [orgs.a1],
  });
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
  await insertOrgUser(server, orgs.a1, ROLES.orgAdmin, 'admin@a1.test');
  await insertOrgUser(server, orgs.b1, ROLES.orgAdmin, 'admin@b1.test');
  await insertOrgUser(server, orgs.a1, ROLES.orgReadOnly, 'reader@a1.test');
  const restricted = await insertOrgUser(server, orgs.a1, ROLES.orgAdmin, 'site@a1.test');
  restrictOrgUser(server, restricted, { siteIds: [insertSite(server, orgs.a1, 'A1 HQ')] });
  const devicesOnly = insertOrgRole(server, orgs.a1, 'Devices only', [['devices', 'view']]);
  await insertOrgUser(server, orgs.a1, devicesOnly, 'devices@a1.test');
  for (const email of [
    'all@p1.test',
    'selected@p1.test',
    'none@p1.test',
    'admin@a1.test',
    'admin@b1.test',
    'reader@a1.test',
    'site@a1.test',
    'devices@a1.test',
  ])
    tokens[email] = await signedToken(server, email);
  apiKey = insertApiKey(server, orgs.a1).key;
  for (const org of ['a1', 'a2', 'b1'] as const) {
    const res = await server.api.request('POST', '/webhooks', {
      token: world.admin,
      body: {
        name: `hook ${org}`,
        url: `${world.receiver.url}/${org}`,
        events: ['device.online'],
        orgId: orgs[org],
      },
    });
    expect(res.status).toBe(201);
    hooks[org] = res.body.id as string;
  }
});
afterAll(async () => {
  await world?.dispose();
});

const listAs = async (token: string) => {
  const res = await world.server.api.get('/webhooks', token);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ id: string }>).map((w) => w.id).sort();
};

describe('webhook scope', () => {
  it('lists exactly the webhooks of the organizations a caller covers', async () => {
    expect(await listAs(world.admin)).toEqual(expect.arrayContaining([hooks.a1, hooks.a2, hooks.b1]));
    expect(await listAs(tokens['all@p1.test']!)).toEqual([hooks.a1, hooks.a2].sort());
    expect(await listAs(tokens['selected@p1.test']!)).toEqual([hooks.a1]);
    expect(await listAs(tokens['none@p1.test']!)).toEqual([]);
    expect(await listAs(tokens['admin@a1.test']!)).toEqual([hooks.a1]);
    expect(await listAs(tokens['admin@b1.test']!)).toEqual([hooks.b1]);
    expect(await listAs(tokens['reader@a1.test']!)).toEqual([hooks.a1]);
    const byKey = await world.server.api.request('GET', '/webhooks', { headers: { 'x-api-key': apiKey } });
    expect(byKey.body.data.map((w: { id: string }) => w.id)).toEqual([hooks.a1]);
    // orgId narrows; it never widens.
    const narrowed = await world.server.api.get(`/webhooks?orgId=${orgs.b1}`, tokens['admin@a1.test']);
    expect(narrowed.body.data).toEqual([]);
  });

  it('answers 404 for a webhook outside the caller scope, on every route', async () => {
    const { api } = world.server;
    const outside: Array<[string, string]> = [
      ['admin@a1.test', hooks.b1],
      ['admin@b1.test', hooks.a1],
      ['selected@p1.test', hooks.a2],
      ['all@p1.test', hooks.b1],
      ['none@p1.test', hooks.a1],
    ];
    for (const [caller, id] of outside) {
      const token = tokens[caller]!;
      const answers = await Promise.all([
        api.get(`/webhooks/${id}`, token),
        api.get(`/webhooks/${id}/deliveries`, token),
        api.request('PATCH', `/webhooks/${id}`, { token, body: { name: 'taken' } }),
        api.post(`/webhooks/${id}/test`, {}, token),
        api.post(`/webhooks/${id}/retry/${id}`, {}, token),
        api.request('DELETE', `/webhooks/${id}`, { token }),
      ]);
      expect(
        answers.map((r) => r.status),
        `${caller} on ${id}`,
      ).toEqual([404, 404, 404, 404, 404, 404]);
    }
    expect((await api.get(`/webhooks/${hooks.b1}`, world.admin)).body.name).toBe('hook b1');
  });

  it('places new webhooks: own organization for organization scope, a verified one for partners', async () => {
    const { api } = world.server;
    const body = { name: 'n', url: `${world.receiver.url}/n`, events: ['device.online'] };
    const own = await api.request('POST', '/webhooks', {
      token: tokens['admin@a1.test'],
      body: { ...body, orgId: orgs.b1 },
    });
    expect(own.status).toBe(201);
    expect(own.body.orgId).toBe(orgs.a1);

    const partnerNoOrg = await api.request('POST', '/webhooks', { token: tokens['all@p1.test'], body });
    expect([partnerNoOrg.status, partnerNoOrg.body.error]).toEqual([403, 'Organization context required']);
    const notGranted = await api.request('POST', '/webhooks', {
      token: tokens['selected@p1.test'],
      body: { ...body, orgId: orgs.a2 },
    });
    expect(notGranted.status).toBe(404);
    const otherPartner = await api.request('POST', '/webhooks', {
      token: tokens['all@p1.test'],
      body: { ...body, orgId: orgs.b1 },
    });
    expect(otherPartner.status).toBe(404);
    const granted = await api.request('POST', '/webhooks', {
      token: tokens['selected@p1.test'],
      body: { ...body, orgId: orgs.a1 },
    });
    expect([granted.status, granted.body.orgId]).toEqual([201, orgs.a1]);
  });

  it('needs organizations:write to change and refuses callers limited to part of an organization', async () => {
    const { api } = world.server;
    const reader = tokens['reader@a1.test']!;
    expect((await api.get(`/webhooks/${hooks.a1}`, reader)).status).toBe(200);
    expect((await api.post(`/webhooks/${hooks.a1}/test`, {}, reader)).status).toBe(403);
    expect(
      (await api.request('PATCH', `/webhooks/${hooks.a1}`, { token: reader, body: { status: 'paused' } }))
        .status,
    ).toBe(403);
    const restricted = tokens['site@a1.test']!;
    expect((await api.get('/webhooks', restricted)).status).toBe(403);
    expect((await api.get(`/webhooks/${hooks.a1}`, restricted)).status).toBe(403);
  });

  it("pushes deliveries only to consoles that may read the webhook's organization", async () => {
    const open = (email: string) => consoleSocketFor(world.server.url, tokens[email]!);
    const reader = await open('admin@a1.test');
    const others = {
      'another organization': await open('admin@b1.test'),
      'a site-restricted user': await open('site@a1.test'),
      'a user without organizations:read': await open('devices@a1.test'),
    };
    try {
      expect((await world.server.api.get('/webhooks', tokens['devices@a1.test'])).status).toBe(403);
      const test = await world.server.api.post(`/webhooks/${hooks.a1}/test`, {}, world.admin);
      const id = test.body.delivery.id as string;
      await reader.next(
        (m) =>
          m.type === 'event' &&
          m.event === 'webhook.delivery.updated' &&
          (m.data as { id?: string }).id === id,
      );
      // The others had the same time to receive anything, and got none of it.
      await new Promise((r) => setTimeout(r, 100));
      for (const [who, socket] of Object.entries(others))
        expect(
          socket.messages.filter((m) => m.type === 'event' && m.event.startsWith('webhook.')),
          who,
        ).toEqual([]);
    } finally {
      for (const socket of [reader, ...Object.values(others)]) socket.socket.close();
    }
  });
});
