import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { BackupError } from './errors';

// The install's secrets travel inside each backup sealed under the operator's passphrase: scrypt turns the
// passphrase into a key, AES-256-GCM encrypts the secrets and authenticates them together with the backup's
// manifest fields (the additional data), so a wrong passphrase, an altered manifest or a swapped database image
// all fail the same tag check. Only node:crypto primitives are composed here; nothing is hand-rolled.

/** OWASP's scrypt floor (N = 2^17, r = 8, p = 1): about 128 MiB and a few hundred milliseconds per derivation. */
const KDF = { N: 2 ** 17, r: 8, p: 1 } as const;
/** A backup names its own KDF cost; a forged one asking for more than this is refused, not computed. */
const MAX_N = 2 ** 20;
const KEY_BYTES = 32;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

export const sealedSchema = z.object({
  kdf: z.literal('scrypt'),
  N: z
    .number()
    .int()
    .min(2 ** 14)
    .max(MAX_N)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two'),
  r: z.number().int().min(1).max(32),
  p: z.number().int().min(1).max(16),
  salt: base64,
  cipher: z.literal('aes-256-gcm'),
  iv: base64,
  tag: base64,
  ciphertext: base64,
});

export type SealedSecrets = z.infer<typeof sealedSchema>;

function deriveKey(
  passphrase: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; node refuses above maxmem (32 MiB by default), so allow what the cost needs.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function sealSecrets(
  secrets: Record<string, string>,
  passphrase: string,
  additionalData: string,
): Promise<SealedSecrets> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, salt, KDF);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return {
    kdf: 'scrypt',
    ...KDF,
    salt: salt.toString('base64'),
    cipher: 'aes-256-gcm',
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

const secretsSchema = z
  .object({ APP_ENCRYPTION_KEY: z.string().min(1), JWT_SECRET: z.string().min(1) })
  .catchall(z.string());

/** The secrets, or a BackupError when the passphrase is wrong or anything the tag covers was changed. */
export async function openSecrets(
  sealed: SealedSecrets,
  passphrase: string,
  additionalData: string,
): Promise<Record<string, string>> {
  const key = await deriveKey(passphrase, Buffer.from(sealed.salt, 'base64'), sealed);
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(additionalData, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    plaintext = Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    // GCM cannot tell a wrong key from altered data, and saying which would help a guesser: one message.
    throw new BackupError(
      'Cannot open the sealed secrets: wrong passphrase, or the backup was altered',
      'BACKUP_PASSPHRASE_MISMATCH',
    );
  }
  const parsed = secretsSchema.safeParse(JSON.parse(plaintext));
  if (!parsed.success) throw new BackupError('The sealed secrets are incomplete', 'BACKUP_INVALID');
  return parsed.data;
}
