import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { sha256Hex } from '../../crypto';

// TOTP (RFC 6238, 30-second steps, 6 digits) through otplib, and single-use recovery codes.

const ISSUER = 'Gatehouse';
/** One step either side, for clock drift between the server and the technician's phone. */
const TOLERANCE_SECONDS = 30;

export const newTotpSecret = (): string => generateSecret();

export function otpAuthUrl(secret: string, email: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/** qrcode loads on the first enrollment, not at start-up (issue 18). */
export async function qrCodeDataUrl(otpauth: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(otpauth, { margin: 1, width: 240 });
}

export const isTotpFormat = (code: string): boolean => /^\d{6}$/.test(code);

/**
 * Verifies a code; returns the accepted time step, or null. Codes at or before `lastTimeStep` are refused, so a
 * code that was already used once cannot be replayed.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  lastTimeStep: number | null,
): Promise<number | null> {
  if (!isTotpFormat(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(lastTimeStep !== null ? { afterTimeStep: lastTimeStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I to misread
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `7KQ4-M2XP-9D`: 50 bits each, shown once and stored as hashes. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/** Case, spaces and dashes do not matter when a technician types a code back. */
export const normalizeRecoveryCode = (code: string): string => code.toUpperCase().replace(/[\s-]/g, '');

export const hashRecoveryCode = (code: string): string =>
  sha256Hex(`recovery:${normalizeRecoveryCode(code)}`);
