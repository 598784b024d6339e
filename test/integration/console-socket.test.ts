import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConsoleSocket, type ConsoleSocket } from '../support/console-client';
import { auditSettled, seedOrgUser, startServer, type TestServer } from '../support/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.dispose();
});

type OpenSocket = ConsoleSocket;
const open = (ticket: string): Promise<OpenSocket> => openConsoleSocket(server.url, ticket);

async function ticketFor(token: string): Promise<string> {
  const res = await server.api.post('/ws/ticket', {}, token);
  expect(res.status).toBe(200);
  expect(res.body.expiresInSeconds).toBe(30);
  return res.body.ticket;
}

describe('console socket', () => {
  it('opens with a ticket, greets, and pushes audit events live', async () => {
    const admin = await server.api.login();
    const live = await open(await ticketFor(admin.body.accessToken));
    expect(await live.next((m) => m.type === 'connected')).toMatchObject({
      type: 'connected',
      scope: 'system',
    });
    await server.api.login(); // another sign-in by the admin produces an audit entry
    await auditSettled(server);
    const event = await live.next((m) => m.type === 'event' && m.event === 'audit.created');
    expect(event).toMatchObject({
      type: 'event',
      event: 'audit.created',
      orgId: null,
      data: { action: 'user.login' },
    });
    live.socket.close();
  });

  it('refuses a missing, wrong, reused or expired ticket', async () => {
    await expect(open('')).rejects.toThrow('HTTP 401');
    await expect(open('not-a-ticket')).rejects.toThrow('HTTP 401');
    const token = (await server.api.login()).body.accessToken;
    const ticket = await ticketFor(token);
    const first = await open(ticket);
    await expect(open(ticket)).rejects.toThrow('HTTP 401');
    first.socket.close();
    expect((await server.api.post('/ws/ticket', {})).status).toBe(401);
  });

  it('expires tickets after 30 seconds', async () => {
    const token = (await server.api.login()).body.accessToken;
    const realNow = Date.now;
    const ticket = await ticketFor(token);
    Date.now = () => realNow() + 31_000;
    try {
      await expect(open(ticket)).rejects.toThrow('HTTP 401');
    } finally {
      Date.now = realNow;
    }
  });

  it('pushes only events within the caller’s scope', async () => {
    const org = await seedOrgUser(server, 'tech@contoso.test', 'Contoso-Tech-2026');
    const tech = await server.api.login('tech@contoso.test', 'Contoso-Tech-2026');
    const techSocket = await open(await ticketFor(tech.body.accessToken));
    const adminSocket = await open(await ticketFor((await server.api.login()).body.accessToken));
    await auditSettled(server);

    await server.api.login(); // platform chain: system scope only
    await server.api.login('tech@contoso.test', 'Contoso-Tech-2026'); // the technician's organization
    await auditSettled(server);
    const orgEvent = await techSocket.next((m) => m.type === 'event');
    expect(orgEvent).toMatchObject({ orgId: org.orgId });
    await adminSocket.next((m) => m.type === 'event' && m.orgId === org.orgId);
    await adminSocket.next((m) => m.type === 'event' && m.orgId === null);
    expect(
      techSocket.messages
        .filter((m) => m.type === 'event')
        .every((m) => m.type === 'event' && m.orgId === org.orgId),
    ).toBe(true);
    techSocket.socket.close();
    adminSocket.socket.close();
  });

  it('pushes audit events only to consoles that may read the audit log', async () => {
    const org = await seedOrgUser(server, 'helpdesk@contoso.test', 'Contoso-Help-2026');
    server.context.db.prepare('DELETE FROM role_permissions WHERE role_id = ?').run(org.roleId);
    const helpdesk = await server.api.login('helpdesk@contoso.test', 'Contoso-Help-2026');
    const live = await open(await ticketFor(helpdesk.body.accessToken));
    const admin = await open(await ticketFor((await server.api.login()).body.accessToken));
    await server.api.login('helpdesk@contoso.test', 'Contoso-Help-2026'); // an audited sign-in in its organization
    await auditSettled(server);
    // The administrator sees the entry, so it was pushed; the helpdesk console (no audit:read) was skipped.
    await admin.next((m) => m.type === 'event' && m.orgId === org.orgId);
    expect(live.messages.filter((m) => m.type === 'event')).toEqual([]);
    live.socket.close();
    admin.socket.close();
  });

  it('closes the consoles of a technician who signs out', async () => {
    const session = await server.api.login();
    const live = await open(await ticketFor(session.body.accessToken));
    await server.api.post('/auth/logout', {}, session.body.accessToken);
    expect(await live.closed).toBe(4001);
  });

  it('closes the consoles of a technician who is disabled, at once', async () => {
    await seedOrgUser(server, 'tech@contoso.test', 'Contoso-Tech-2026');
    const tech = await server.api.login('tech@contoso.test', 'Contoso-Tech-2026');
    const live = await open(await ticketFor(tech.body.accessToken));
    const { mfaToken } = await import('../support/seed');
    const admin = await mfaToken(server);
    const disabled = await server.api.request('PATCH', `/users/${tech.body.user.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    expect(await live.closed).toBe(4001);
  });

  it('closes every console socket on shutdown', async () => {
    const live = await open(await ticketFor((await server.api.login()).body.accessToken));
    await server.close();
    expect(await live.closed).toBe(1001);
  });
});
