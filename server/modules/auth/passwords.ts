import argon2 from 'argon2';
import { PASSWORD_MIN_LENGTH } from '../../contract';

// argon2id with the library's defaults (OWASP-recommended memory and time cost).

export const hashPassword = (password: string): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// Verified against when the account does not exist, so a wrong email costs as long as a wrong password and
// response time does not reveal which accounts exist.
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('gatehouse-timing-equaliser');
  await verifyPassword(await dummyHash, password);
  return false;
}

const COMMON = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'letmein1',
  'welcome1',
  'admin123',
  'administrator',
  'changeme',
  'passw0rd',
  'p@ssw0rd',
]);

/** Returns why a password is refused, or null when it is acceptable (one policy for every account). */
export function passwordProblem(password: string, context: { email?: string } = {}): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > 256) return 'Password must be at most 256 characters';
  const lower = password.toLowerCase();
  const local = context.email?.split('@')[0]?.toLowerCase();
  if (
    COMMON.has(lower) ||
    new Set(password).size < 4 ||
    (local && local.length >= 4 && lower.includes(local))
  ) {
    return 'Password is too weak';
  }
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2 && password.length < 16) return 'Password is too weak';
  return null;
}
