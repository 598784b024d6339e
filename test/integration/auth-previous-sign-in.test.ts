import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeResponse } from '../../server/contract';
import { insertOrg, insertOrgUser, insertPartner, plainToken, ROLES } from '../support/seed';
import { startServer, type ApiResponse, type TestServer } from '../support/server';

// GET /auth/me `previousSignInAt` (issue 16): the profile's "Previous sign-in" is the sign-in before the current
// session, never the current one (`user.lastLoginAt` is stamped by the sign-in that started it), and null when no
// earlier sign-in is on record. Sessions are refresh families; a family's first token is when it began.

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  const partner = insertPartner(server, { name: 'Northwind MSP' });
  const org = insertOrg(server, partner.partnerId, 'Alpha One');
  await insertOrgUser(server, org, ROLES.orgTechnician, 'dana@a1.test');
  await insertOrgUser(server, org, ROLES.orgTechnician, 'eli@a1.test');
});

afterAll(async () => {
  await server.dispose();
});

const me = async (token: string) => {
  const res = (await server.api.get('/auth/me', token)) as ApiResponse<MeResponse>;
  expect(res.status).toBe(200);
  return res.body;
};
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
/** The session's first token is written a moment after its sign-in stamps lastLoginAt: the same sign-in. */
const sameSignIn = (at: string | null, signIn: string | null) =>
  at !== null && signIn !== null && Math.abs(Date.parse(at) - Date.parse(signIn)) < 25;

describe('GET /auth/me previousSignInAt', () => {
  it('is the start of the session before this one, and null for the first', async () => {
    const first = await plainToken(server, 'dana@a1.test');
    const firstMe = await me(first);
    expect(firstMe.previousSignInAt).toBeNull();
    await pause();
    // Another user's sign-in in between is not Dana's.
    await plainToken(server, 'eli@a1.test');
    await pause();
    const second = await plainToken(server, 'dana@a1.test');
    const secondMe = await me(second);
    // The first session began when its sign-in stamped lastLoginAt.
    expect(sameSignIn(secondMe.previousSignInAt, firstMe.user.lastLoginAt)).toBe(true);
    expect(sameSignIn(secondMe.previousSignInAt, secondMe.user.lastLoginAt)).toBe(false);
    // Seen from the first session, the later sign-in is not "previous": nothing came before it.
    expect((await me(first)).previousSignInAt).toBeNull();
    await pause();
    const third = await plainToken(server, 'dana@a1.test');
    expect(sameSignIn((await me(third)).previousSignInAt, secondMe.user.lastLoginAt)).toBe(true);
  });
});
