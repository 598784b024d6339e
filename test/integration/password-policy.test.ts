import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '../../server/contract';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  lastMessageTo,
  nextMessageTo,
  PASSWORD,
  plainToken,
  ROLES,
  signedToken,
} from '../support/seed';
import { startServer, type TestServer } from '../support/server';

// One password policy everywhere (issue 16): the contract's one minimum length, 12, holds for first-run setup,
// registration, invitation acceptance, password reset and change; eleven characters that would pass every other
// check are refused with the same words on each path, and twelve are accepted.

const ELEVEN = 'Correct-H-9';
const TWELVE = 'Horse-Nine-9';
const TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;

let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startServer({ bootstrap: false });
  orgId = insertOrg(server, insertPartner(server).partnerId);
});
afterAll(async () => {
  await server.dispose();
});

/** The refusal's words, whether the body schema or the service said them. */
const refusal = (body: { error?: string }) => String(body.error).replace(/^\w+: /, '');

describe('one password policy', () => {
  it('is 12 characters, in the contract', () => {
    expect(ELEVEN).toHaveLength(PASSWORD_MIN_LENGTH - 1);
    expect(TWELVE).toHaveLength(PASSWORD_MIN_LENGTH);
    expect(PASSWORD_MIN_LENGTH).toBe(12);
  });

  it('first-run setup', async () => {
    const body = { name: 'Grace Hopper', email: 'grace@gatehouse.test', setupToken: server.setupToken };
    const short = await server.api.post('/setup', { ...body, password: ELEVEN });
    expect(short.status).toBe(400);
    expect(refusal(short.body)).toBe(TOO_SHORT);
  });

  it('registration of a partner and of a user', async () => {
    const partner = await server.api.post('/auth/register-partner', {
      companyName: 'Short Passwords Ltd',
      name: 'Sam Short',
      email: 'sam@short.test',
      password: ELEVEN,
      acceptTerms: true,
    });
    expect(partner.status).toBe(400);
    expect(refusal(partner.body)).toBe(TOO_SHORT);
    const user = await server.api.post('/auth/register', {
      name: 'Sam Short',
      email: 'sam2@short.test',
      password: ELEVEN,
    });
    expect(user.status).toBe(400);
    expect(refusal(user.body)).toBe(TOO_SHORT);
  });

  it('reset and change', async () => {
    const email = 'reset@contoso.test';
    await insertOrgUser(server, orgId, ROLES.orgTechnician, email);
    const { token } = await nextMessageTo(server, email, async () => {
      expect((await server.api.post('/auth/forgot-password', { email })).status).toBe(200);
    });
    const reset = await server.api.post('/auth/reset-password', { token, password: ELEVEN });
    expect(reset.status).toBe(400);
    expect(refusal(reset.body)).toBe(TOO_SHORT);

    const session = await plainToken(server, email);
    const change = (newPassword: string) =>
      server.api.post('/auth/change-password', { currentPassword: PASSWORD, newPassword }, session);
    const short = await change(ELEVEN);
    expect(short.status).toBe(400);
    expect(refusal(short.body)).toBe(TOO_SHORT);
    expect((await change(TWELVE)).status).toBe(200);
  });

  it('invitation acceptance', async () => {
    await insertOrgUser(server, orgId, ROLES.orgAdmin, 'oadmin@contoso.test');
    // Inviting is MFA-gated: the administrator's session has passed MFA.
    const admin = await signedToken(server, 'oadmin@contoso.test', true);
    const invite = await server.api.post(
      '/users/invite',
      { email: 'invitee@contoso.test', name: 'In Vitee', roleId: ROLES.orgTechnician },
      admin,
    );
    expect(invite.status).toBe(201);
    const { token } = lastMessageTo(server, 'invitee@contoso.test');
    const short = await server.api.post('/auth/accept-invite', { token, password: ELEVEN });
    expect(short.status).toBe(400);
    expect(refusal(short.body)).toBe(TOO_SHORT);
    expect((await server.api.post('/auth/accept-invite', { token, password: TWELVE })).status).toBe(200);
  });
});
