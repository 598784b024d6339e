import { afterAll, beforeAll, expect } from 'vitest';
import { insertOrg, insertOrgUser, insertPartner, PASSWORD, readOutbox, ROLES } from './seed';
import { startServer, type TestServer } from './server';

// SMS as a second factor through the outbox (kind `sms`), and the organization MFA policy.
//
// Shared by the SMS MFA suites (test/integration/sms-mfa-*.test.ts). The bindings are live: a suite calls
// useSmsMfaWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let partnerId: string;
let phoneCounter = 0;
export const freshPhone = () => `+1415555${String(++phoneCounter).padStart(4, '0')}`;

export function orgWithSettings(settings: object): string {
  const orgId = insertOrg(server, partnerId, `Org ${phoneCounter}-${Math.random().toString(36).slice(2, 7)}`);
  server.context.db
    .prepare('UPDATE organizations SET settings = ? WHERE id = ?')
    .run(JSON.stringify(settings), orgId);
  return orgId;
}

export function setOrgSettings(orgId: string, settings: object): void {
  server.context.db
    .prepare('UPDATE organizations SET settings = ? WHERE id = ?')
    .run(JSON.stringify(settings), orgId);
}

/** The 6-digit code of the newest SMS to `phone`. */
export function lastSmsCode(phone: string): string {
  const sms = readOutbox(server)
    .filter((m) => m.kind === 'sms' && m.to === phone)
    .at(-1);
  const code = sms ? /\b(\d{6})\b/.exec(sms.text)?.[1] : undefined;
  if (!code) throw new Error(`no SMS code sent to ${phone}`);
  return code;
}

export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export async function signIn(email: string): Promise<string> {
  const login = await server.api.login(email, PASSWORD);
  expect(login.status).toBe(200);
  return login.body.accessToken as string;
}

/** A user of a fresh organization with SMS MFA enabled; returns its session and recovery codes. */
export async function smsUser(email: string, settings: object = {}) {
  const orgId = orgWithSettings(settings);
  const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, email);
  const token = await signIn(email);
  const phone = freshPhone();
  expect((await server.api.post('/auth/phone/verify', { phoneNumber: phone }, token)).status).toBe(200);
  expect((await server.api.post('/auth/phone/confirm', { code: lastSmsCode(phone) }, token)).status).toBe(
    200,
  );
  const enabled = await server.api.post('/auth/mfa/sms/enable', {}, token);
  expect(enabled.status).toBe(200);
  return {
    orgId,
    userId,
    phone,
    session: enabled.body,
    recoveryCodes: enabled.body.recoveryCodes as string[],
  };
}

/** Password, SMS send and verify: an MFA session for an SMS user. */
export async function smsLogin(email: string, phone: string): Promise<string> {
  const login = await server.api.login(email, PASSWORD);
  expect(login.body).toEqual({ mfaRequired: true, tempToken: expect.any(String), mfaMethod: 'sms' });
  expect((await server.api.post('/auth/mfa/sms/send', { tempToken: login.body.tempToken })).status).toBe(200);
  const verify = await server.api.post('/auth/mfa/verify', {
    tempToken: login.body.tempToken,
    code: lastSmsCode(phone),
  });
  expect(verify.status).toBe(200);
  return verify.body.accessToken as string;
}

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function useSmsMfaWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    partnerId = insertPartner(server).partnerId;
  });

  afterAll(async () => {
    await server.dispose();
  });
}
