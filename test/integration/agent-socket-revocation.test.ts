import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintEnrollmentKey, startAgentServer, TestAgent, type AgentSocket } from '../support/agent-client';
import { insertOrg, insertPartner, insertPartnerUser, signedToken } from '../support/seed';
import { ADMIN, type TestServer } from '../support/server';

// Agent sockets are authenticated once, at the upgrade; the hub does not re-read credentials per ping round
// (issue 18). Each event that revokes an agent's right to a socket closes exactly the affected sockets at once,
// with 4001, and leaves every other socket open. The ping interval stays at its default (25 s), so a close within
// a second can only come from the event.

let server: TestServer;
const tok = { admin: '', acme: '' };
let acme = '';

beforeAll(async () => {
  server = await startAgentServer();
  const partner = insertPartner(server, { name: 'Acme MSP' });
  acme = partner.partnerId;
  await insertPartnerUser(server, acme, partner.adminRoleId, 'admin@acme.test', { orgAccess: 'all' });
  tok.admin = await signedToken(server, ADMIN.email);
  tok.acme = await signedToken(server, 'admin@acme.test');
});
afterAll(async () => {
  await server?.dispose();
});

const hub = () => server.context.agentHub;

async function connectedAgent(orgId: string): Promise<{ agent: TestAgent; socket: AgentSocket }> {
  const agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key);
  const socket = await agent.connect();
  return { agent, socket };
}

/** The close code when the socket closes within `ms`, else null. */
function closedWithin(socket: AgentSocket, ms = 1000): Promise<number | null> {
  return Promise.race([
    socket.closed.then((c) => c.code),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);
}

describe('agent socket revocation', () => {
  it('decommissioning a device closes its socket only', async () => {
    const org = insertOrg(server, acme, 'Decommission Co');
    const target = await connectedAgent(org);
    const bystander = await connectedAgent(org);
    const res = await server.api.request('DELETE', `/devices/${target.agent.creds.deviceId}`, {
      token: tok.acme,
    });
    expect(res.status).toBe(200);
    expect(await closedWithin(target.socket)).toBe(4001);
    expect(hub().isConnected(target.agent.creds.deviceId)).toBe(false);
    expect(hub().isConnected(bystander.agent.creds.deviceId)).toBe(true);
    await bystander.socket.close();
  });

  it('a decommissioned agent gets its uninstall before the close, reports it over HTTP, and its credential dies', async () => {
    const org = insertOrg(server, acme, 'Uninstall Co');
    const target = await connectedAgent(org);
    const bystander = await connectedAgent(org);
    const removed = await server.api.request('DELETE', `/devices/${target.agent.creds.deviceId}`, {
      token: tok.acme,
    });
    expect(removed.status).toBe(200);
    // The uninstall went out over the socket before it closed; the agent reports it done over HTTP.
    const uninstall = await target.socket.nextCommand('self_uninstall');
    expect((await target.socket.closed).code).toBe(4001);
    const result = await target.agent.result(uninstall.id, { status: 'completed' });
    expect(result.status).toBe(200);
    expect((await target.agent.heartbeat()).status).toBe(401);
    expect(hub().isConnected(bystander.agent.creds.deviceId)).toBe(true);
    await bystander.socket.close();
  });

  it('a partner that stops being active, then is deleted, closes its agents only', async () => {
    const other = insertPartner(server, { name: 'Suspended MSP' }).partnerId;
    const otherOrg = insertOrg(server, other, 'Suspended Customer');
    const bystanderOrg = insertOrg(server, acme, 'Bystander Co');
    const target = await connectedAgent(otherOrg);
    const bystander = await connectedAgent(bystanderOrg);

    const suspended = await server.api.request('PATCH', `/orgs/partners/${other}`, {
      token: tok.admin,
      body: { status: 'suspended' },
    });
    expect(suspended.status).toBe(200);
    expect(await closedWithin(target.socket)).toBe(4001);
    expect(hub().isConnected(bystander.agent.creds.deviceId)).toBe(true);

    // Reactivated, the agent reconnects; deleting the partner closes it again.
    expect(
      (
        await server.api.request('PATCH', `/orgs/partners/${other}`, {
          token: tok.admin,
          body: { status: 'active' },
        })
      ).status,
    ).toBe(200);
    const again = await target.agent.connect();
    const deleted = await server.api.request('DELETE', `/orgs/partners/${other}`, { token: tok.admin });
    expect(deleted.status).toBe(200);
    expect(await closedWithin(again)).toBe(4001);
    expect(hub().isConnected(target.agent.creds.deviceId)).toBe(false);
    expect(hub().isConnected(bystander.agent.creds.deviceId)).toBe(true);
    await bystander.socket.close();
  });

  it('deleting an organization closes its agents and leaves a sibling organization connected', async () => {
    const doomed = insertOrg(server, acme, 'Short Lived');
    const sibling = insertOrg(server, acme, 'Long Lived');
    const target = await connectedAgent(doomed);
    const bystander = await connectedAgent(sibling);
    const deleted = await server.api.request('DELETE', `/orgs/organizations/${doomed}`, { token: tok.acme });
    expect(deleted.status).toBe(200);
    expect(await closedWithin(target.socket)).toBe(4001);
    expect(hub().isConnected(bystander.agent.creds.deviceId)).toBe(true);
    await bystander.socket.close();
  });
});
