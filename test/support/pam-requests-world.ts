import { afterAll, beforeAll, beforeEach } from 'vitest';
import { mintEnrollmentKey, startAgentServer, TestAgent, type AgentSocket } from './agent-client';
import {
  insertOrg,
  insertOrgUser,
  insertPamRule,
  insertPartner,
  insertSite,
  ROLES,
  signedToken,
} from './seed';
import { type TestServer } from './server';

// Elevation requests end to end over real HTTP, SQLite and agent sockets (spec 2 state table and errors;
// DESIGN §5 without the step-up, which has its own suite): ingest and the decision chain, respond, refused
// approves, actuation, revoke, expiry, the inbox slots, scope and the limits.
//
// Shared by the PAM request suites (test/integration/pam-requests-*.test.ts). The bindings are live: a suite calls
// usePamRequestsWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let partnerId: string;
export let orgId: string;
export let siteA: string;
export let siteB: string;
export let otherOrg: string;
export let agent: TestAgent;
export let agentB: TestAgent;
export let otherAgent: TestAgent;
export let socket: AgentSocket;
export let tech: string;
export let tech2: string;
export let siteTech: string;
export let outsider: string;

export const HASH = 'a'.repeat(64);
export const db = () => server.context.db;
export const row = (id: string) =>
  db().prepare('SELECT * FROM elevation_requests WHERE id = ?').get(id) as Record<string, any>;

export async function report(body: Record<string, unknown> = {}, who = agent) {
  return who.api.post(
    `${who.path}/elevation-requests`,
    {
      subject_username: 'CORP\\alice',
      target_executable_path: 'C:\\Users\\alice\\Downloads\\ZoomInstaller.exe',
      target_executable_hash: HASH,
      target_executable_signer: 'Zoom Video Communications, Inc.',
      parent_image: 'C:\\Windows\\explorer.exe',
      command_line: '"ZoomInstaller.exe" /silent',
      pid: 4242,
      observed_at: new Date().toISOString(),
      ...body,
    },
    who.creds.authToken,
  );
}

/** The agent socket's command of this type for this elevation request. */
export const commandFor = (type: string, requestId: string) =>
  socket.next(
    (m) =>
      m.type === 'command' && m.commandType === type && (m as any).payload.elevationRequestId === requestId,
  ) as Promise<any>;

export const respond = (token: string, id: string, body: Record<string, unknown>) =>
  server.api.post(`/pam/elevation-requests/${id}/respond`, body, token);

export const insertRule = (fields: Record<string, unknown>) => insertPamRule(server, orgId, fields);

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function usePamRequestsWorld(): void {
  beforeAll(async () => {
    server = await startAgentServer();
    partnerId = insertPartner(server).partnerId;
    orgId = insertOrg(server, partnerId, 'Contoso');
    otherOrg = insertOrg(server, insertPartner(server, { name: 'Other MSP' }).partnerId, 'Initech');
    siteA = insertSite(server, orgId, 'Head office');
    siteB = insertSite(server, orgId, 'Warehouse');
    agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId, { siteId: siteA }).key, {
      hostname: 'WS-ALICE',
    });
    agentB = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId, { siteId: siteB }).key, {
      hostname: 'WS-BOB',
    });
    otherAgent = await TestAgent.enroll(server, mintEnrollmentKey(server, otherOrg).key, {
      hostname: 'INITECH-1',
    });
    socket = await agent.connect();
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech@contoso.test');
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech2@contoso.test');
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'sitetech@contoso.test');
    db()
      .prepare(
        'UPDATE organization_users SET site_ids = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)',
      )
      .run(JSON.stringify([siteB]), 'sitetech@contoso.test');
    await insertOrgUser(server, otherOrg, ROLES.orgTechnician, 'tech@initech.test');
    tech = await signedToken(server, 'tech@contoso.test');
    tech2 = await signedToken(server, 'tech2@contoso.test');
    siteTech = await signedToken(server, 'sitetech@contoso.test');
    outsider = await signedToken(server, 'tech@initech.test');
  });

  afterAll(async () => {
    await socket.close();
    await server.dispose();
  });

  beforeEach(() => {
    db().prepare('DELETE FROM rate_limits').run();
    db().prepare('DELETE FROM pam_rules').run();
    db().prepare('DELETE FROM pam_config').run();
    db().prepare("UPDATE partners SET settings = '{}'").run();
  });
}
