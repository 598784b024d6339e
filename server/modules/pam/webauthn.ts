import { randomUUID } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppContext } from '../../context';
import type { ApproverDevice } from '../../contract';
import { badRequest, HttpError, notFound } from '../../http/errors';
import {
  approverDeviceByCredential,
  approverDeviceById,
  approverDevicesOf,
  deleteApproverDevice,
  hasApproverDeviceRow,
  insertApproverDevice,
  putChallenge,
  recordDeviceUse,
  takeChallenge,
  type ApproverDeviceRow as DeviceRow,
} from './webauthn-store';

// Approver devices and the approval assertion (DESIGN §5), with @simplewebauthn: platform authenticators only
// (Windows Hello, Touch ID), user verification required. Challenges live in SQLite under (user, purpose,
// request): issuing a new one replaces the old, and verifying deletes it before checking, so each is usable once
// and a restart neither loses nor revives one.

export const ASSERTION_TTL_SECONDS = 120;
const REGISTRATION_TTL_SECONDS = 300;

/**
 * @simplewebauthn/server and its certificate parsers are the most expensive import of the server (about a third
 * of a second of start-up on two cores, issue 18); only step-up uses them, so they load on first use.
 */
const webauthnLibrary = () => import('@simplewebauthn/server');

const toDevice = (row: DeviceRow): ApproverDevice => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  deviceType: row.device_type,
  backedUp: row.backed_up === 1,
});

function deviceRows(ctx: AppContext, userId: string): DeviceRow[] {
  return approverDevicesOf(ctx.db, userId);
}

export function listApproverDevices(ctx: AppContext, userId: string): ApproverDevice[] {
  return deviceRows(ctx, userId).map(toDevice);
}

export function hasApproverDevice(ctx: AppContext, userId: string): boolean {
  return hasApproverDeviceRow(ctx.db, userId);
}

function expectedOrigins(ctx: AppContext): string[] {
  return ctx.config.webauthnOrigins.length ? ctx.config.webauthnOrigins : [ctx.publicOrigin];
}

function storeChallenge(
  ctx: AppContext,
  userId: string,
  purpose: 'register' | 'approve',
  requestId: string,
  challenge: string,
  ttlSeconds: number,
): void {
  putChallenge(
    ctx.db,
    { userId, purpose, requestId },
    challenge,
    new Date(Date.now() + ttlSeconds * 1000).toISOString(),
  );
}

/** Takes the challenge out of the store (so it can never be used again) and returns it while still valid. */
function consumeChallenge(
  ctx: AppContext,
  userId: string,
  purpose: 'register' | 'approve',
  requestId: string,
): string | null {
  const row = takeChallenge(ctx.db, { userId, purpose, requestId });
  if (!row || Date.parse(row.expires_at) <= Date.now()) return null;
  return row.challenge;
}

// ---- Registration -------------------------------------------------------------------------------------------

export async function registrationOptions(
  ctx: AppContext,
  user: { id: string; email: string; name: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthnLibrary();
  const options = await generateRegistrationOptions({
    rpName: 'Gatehouse',
    rpID: ctx.config.webauthnRpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    timeout: REGISTRATION_TTL_SECONDS * 1000,
    excludeCredentials: deviceRows(ctx, user.id).map((d) => ({
      id: d.credential_id,
      transports: JSON.parse(d.transports) as AuthenticatorTransport[],
    })),
    authenticatorSelection: {
      authenticatorAttachment: 'platform',
      residentKey: 'preferred',
      userVerification: 'required',
    },
  });
  storeChallenge(ctx, user.id, 'register', '', options.challenge, REGISTRATION_TTL_SECONDS);
  return options;
}

export async function registerApproverDevice(
  ctx: AppContext,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
): Promise<ApproverDevice> {
  const challenge = consumeChallenge(ctx, userId, 'register', '');
  if (!challenge)
    throw badRequest('Registration challenge expired or missing; start again', 'CHALLENGE_EXPIRED');
  const { verifyRegistrationResponse } = await webauthnLibrary();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: expectedOrigins(ctx),
      expectedRPID: ctx.config.webauthnRpId,
      requireUserVerification: true,
    });
  } catch (err) {
    throw badRequest(`Registration could not be verified: ${(err as Error).message}`, 'REGISTRATION_FAILED');
  }
  const info = verification.registrationInfo;
  if (!verification.verified || !info)
    throw badRequest('Registration could not be verified', 'REGISTRATION_FAILED');
  const { credential } = info;
  const id = randomUUID();
  try {
    insertApproverDevice(ctx.db, {
      id,
      user_id: userId,
      name,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      aaguid: info.aaguid,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      created_at: new Date().toISOString(),
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new HttpError(409, 'This authenticator is already registered', 'DEVICE_ALREADY_REGISTERED');
    }
    throw err;
  }
  return toDevice(approverDeviceById(ctx.db, id)!);
}

export function removeApproverDevice(ctx: AppContext, userId: string, id: string): ApproverDevice {
  const row = deleteApproverDevice(ctx.db, id, userId);
  if (!row) throw notFound('Approver device not found');
  return toDevice(row);
}

// ---- Approval assertion --------------------------------------------------------------------------------------

export async function assertionOptions(
  ctx: AppContext,
  userId: string,
  requestId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthnLibrary();
  const options = await generateAuthenticationOptions({
    rpID: ctx.config.webauthnRpId,
    userVerification: 'required',
    timeout: ASSERTION_TTL_SECONDS * 1000,
    allowCredentials: deviceRows(ctx, userId).map((d) => ({
      id: d.credential_id,
      transports: JSON.parse(d.transports) as AuthenticatorTransport[],
    })),
  });
  storeChallenge(ctx, userId, 'approve', requestId, options.challenge, ASSERTION_TTL_SECONDS);
  return options;
}

/**
 * Spends the approval challenges of requests whose decision stopped before their proof was checked (a set whose
 * re-authentication failed), so a proof sent with a wrong password or code is never good for another try.
 */
export function spendApprovalChallenges(
  ctx: AppContext,
  userId: string,
  requestIds: readonly string[],
): void {
  for (const requestId of requestIds) consumeChallenge(ctx, userId, 'approve', requestId);
}

const assertionFailed = (why: string) =>
  new HttpError(401, `Step-up proof could not be verified: ${why}`, 'assertion_failed');

/**
 * Verifies an approval proof: the challenge issued to this caller for this request (consumed here, so a proof
 * is good once), one of the caller's own approver devices, origin, RP ID, user verification and the signature
 * counter. Any failure is 401 `assertion_failed`: a bad proof never falls back to a session approval.
 */
export async function verifyApprovalProof(
  ctx: AppContext,
  userId: string,
  requestId: string,
  proof: AuthenticationResponseJSON,
): Promise<{ deviceId: string; deviceName: string }> {
  const challenge = consumeChallenge(ctx, userId, 'approve', requestId);
  if (!challenge) throw assertionFailed('no valid challenge for this request (expired or already used)');
  const device = approverDeviceByCredential(ctx.db, proof.id, userId);
  if (!device) throw assertionFailed('the credential is not one of your approver devices');
  const { verifyAuthenticationResponse } = await webauthnLibrary();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: proof,
      expectedChallenge: challenge,
      expectedOrigin: expectedOrigins(ctx),
      expectedRPID: ctx.config.webauthnRpId,
      requireUserVerification: true,
      credential: {
        id: device.credential_id,
        publicKey: new Uint8Array(device.public_key),
        counter: device.counter,
        transports: JSON.parse(device.transports) as AuthenticatorTransport[],
      },
    });
  } catch (err) {
    throw assertionFailed((err as Error).message);
  }
  if (!verification.verified) throw assertionFailed('signature not verified');
  recordDeviceUse(ctx.db, device.id, verification.authenticationInfo.newCounter, new Date().toISOString());
  return { deviceId: device.id, deviceName: device.name };
}
