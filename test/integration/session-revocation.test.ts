import { SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConsoleSocket, type ConsoleSocket } from '../support/console-client';
import { ADMIN, auditSettled, seedOrgUser, startServer, type TestServer } from '../support/server';
import { membershipOf, userByEmail } from '../../server/modules/users';

// Revoking a session ends it everywhere at once: its access tokens on the next request, its console-socket
// tickets at upgrade (checked against SQLite, not only the ticket's 30 seconds) and its open sockets. A session
// is a refresh family; the access token names it in `sid`.

const JWT_SECRET = 'session-revocation-test-secret-0123456789';
const NEW_PASSWORD = 'Another-Sturdy-Gate-2027!';

let server: TestServer;
beforeEach(async () => {
  server = await startServer({ env: { JWT_SECRET } });
});
afterEach(async () => {
  await server.dispose();
});

interface Session {
  accessToken: string;
  refreshToken: string;
}

async function signIn(password = ADMIN.password): Promise<Session> {
  const res = await server.api.login(ADMIN.email, password);
  expect(res.status).toBe(200);
  return res.body as Session;
}

async function ticketFor(token: string): Promise<string> {
  const res = await server.api.post('/ws/ticket', {}, token);
  expect(res.status).toBe(200);
  return res.body.ticket as string;
}

const open = async (token: string): Promise<ConsoleSocket> =>
  openConsoleSocket(server.url, await ticketFor(token));

async function expectRevoked(token: string): Promise<void> {
  const me = await server.api.get('/auth/me', token);
  expect(me.status).toBe(401);
  expect(me.body.code).toBe('TOKEN_REVOKED');
}

/** The socket still receives pushes: an audited sign-in reaches a system-scope console. */
async function expectLive(socket: ConsoleSocket): Promise<void> {
  const seen = socket.messages.length;
  await signIn();
  await auditSettled(server);
  await socket.next(
    (m) => m.type === 'event' && m.event === 'audit.created' && socket.messages.indexOf(m) >= seen,
  );
}

describe('password change', () => {
  it('refuses a ticket issued before it and closes the sockets opened before it', async () => {
    const session = await signIn();
    const live = await open(session.accessToken);
    const ticket = await ticketFor(session.accessToken);

    const changed = await server.api.post(
      '/auth/change-password',
      { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD },
      session.accessToken,
    );
    expect(changed.status).toBe(200);

    expect(await live.closed).toBe(4001);
    await expect(openConsoleSocket(server.url, ticket)).rejects.toThrow('HTTP 401');
    await expectRevoked(session.accessToken);
    // A fresh sign-in with the new password opens a socket again.
    const fresh = await signIn(NEW_PASSWORD);
    (await open(fresh.accessToken)).socket.close();
  });
});

describe('refresh-token reuse', () => {
  it('ends the access tokens, tickets and sockets of that session at once; another session keeps working', async () => {
    const stolen = await signIn();
    const other = await signIn();
    const otherSocket = await open(other.accessToken);
    // The legitimate holder refreshes; the copied (now rotated) token is presented afterwards.
    const rotated = await server.api.post('/auth/refresh', { refreshToken: stolen.refreshToken });
    expect(rotated.status).toBe(200);
    const rotatedSocket = await open(rotated.body.accessToken);
    const pendingTicket = await ticketFor(rotated.body.accessToken);

    const replay = await server.api.post('/auth/refresh', { refreshToken: stolen.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('REFRESH_TOKEN_REUSED');

    // Every access token of the family dies with it, not 15 minutes later.
    await expectRevoked(stolen.accessToken);
    await expectRevoked(rotated.body.accessToken);
    expect(await rotatedSocket.closed).toBe(4001);
    await expect(openConsoleSocket(server.url, pendingTicket)).rejects.toThrow('HTTP 401');

    // The user's other session is untouched: its token, its refresh and its socket still work.
    expect((await server.api.get('/auth/me', other.accessToken)).status).toBe(200);
    await expectLive(otherSocket);
    const refreshed = await server.api.post('/auth/refresh', { refreshToken: other.refreshToken });
    expect(refreshed.status).toBe(200);
    expect((await server.api.get('/auth/me', refreshed.body.accessToken)).status).toBe(200);
    otherSocket.socket.close();
  });
});

describe('logout', () => {
  // Spec 1: POST /auth/logout "revokes all tokens of the user" — every session, not just the calling one.
  it('ends the tokens and tickets of every session of the user', async () => {
    const a = await signIn();
    const b = await signIn();
    const ticketB = await ticketFor(b.accessToken);
    const socketB = await open(b.accessToken);
    expect((await server.api.post('/auth/logout', {}, a.accessToken)).status).toBe(200);
    await expectRevoked(a.accessToken);
    await expectRevoked(b.accessToken);
    expect(await socketB.closed).toBe(4001);
    await expect(openConsoleSocket(server.url, ticketB)).rejects.toThrow('HTTP 401');
  });
});

describe('session binding', () => {
  it('refuses a token whose session was revoked in SQLite by any path', async () => {
    const session = await signIn();
    const live = await open(session.accessToken);
    const ticket = await ticketFor(session.accessToken);
    // An administrator-side revocation that bumps nothing else: only the family row changes.
    server.context.db
      .prepare("UPDATE refresh_tokens SET revoked_at = ?, revoked_reason = 'admin' WHERE revoked_at IS NULL")
      .run(new Date().toISOString());
    await expectRevoked(session.accessToken);
    await expect(openConsoleSocket(server.url, ticket)).rejects.toThrow('HTTP 401');
    live.socket.close();
  });

  it('refuses an access token signed without a session id (issued before sessions were named)', async () => {
    const user = userByEmail(server.context.db, ADMIN.email)!;
    const legacy = await new SignJWT({
      typ: 'access',
      scope: 'system',
      partnerId: null,
      orgId: null,
      roleId: membershipOf(server.context.db, user.id)!.roleId,
      mfa: false,
      tv: user.token_version,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('gatehouse')
      .setAudience('gatehouse-console')
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode(JWT_SECRET));
    const res = await server.api.get('/auth/me', legacy);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_INVALID');
  });

  it('refuses a token naming an unknown session or another user’s live one', async () => {
    const session = await signIn();
    const tech = await seedOrgUser(server, 'tech@contoso.test', 'Contoso-Tech-2026');
    expect((await server.api.login('tech@contoso.test', 'Contoso-Tech-2026')).status).toBe(200);
    const techSession = server.context.db
      .prepare('SELECT family_id FROM refresh_tokens WHERE user_id = ?')
      .get(tech.userId) as { family_id: string };
    const { tokens, db } = server.context;
    const admin = userByEmail(db, ADMIN.email)!;
    for (const sid of [randomUUID(), techSession.family_id]) {
      const forged = await tokens.signAccess(
        admin.id,
        membershipOf(db, admin.id)!,
        false,
        admin.token_version,
        sid,
      );
      await expectRevoked(forged);
    }
    expect((await server.api.get('/auth/me', session.accessToken)).status).toBe(200);
  });
});
