// Where the desktop keeps the secrets the server generates on first start (APP_ENCRYPTION_KEY, JWT_SECRET).
// DESIGN §2: in DATA_DIR, 0600, and on the desktop sealed with the OS keychain through safeStorage, so a copied
// data directory is useless without the operator's login session. Main unseals them and hands them to the server
// process over its parent port; the server process never touches safeStorage.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
export const SEALED_FILE = 'secrets.sealed';
/** The headless server's plain key file (server/secrets.ts, `fileSecretStore`): same name, same JSON object. */
export const PLAIN_FILE = 'secrets.json';

/** The stored secrets of a data directory; the same shape as the server's SecretStore. */
export interface SecretStore {
  /** Returns the stored secrets, or null when none were stored yet. */
  read(): Record<string, string> | null;
  write(secrets: Record<string, string>): void;
}

type Warn = (message: string) => void;

/** Writes a file only its owner can read, atomically (a crash never leaves half a key file behind). */
function writePrivate(file: string, data: Buffer): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the mode above is masked by umask on some systems
  renameSync(tmp, file);
}

/** The plain 0600 file a headless run keeps (used when no keychain is available, and to migrate from). */
function plainSecretStore(dataDir: string): SecretStore {
  const file = join(dataDir, PLAIN_FILE);
  return {
    read: () =>
      existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : null,
    write(secrets) {
      mkdirSync(dataDir, { recursive: true });
      writePrivate(file, Buffer.from(JSON.stringify(secrets, null, 2)));
    },
  };
}

/**
 * A SecretStore sealed with safeStorage (Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux).
 * Call after `app` is ready: safeStorage is unavailable before.
 *
 * - Encryption available: secrets live in `secrets.sealed`. A plain `secrets.json` left by a headless run on
 *   the same DATA_DIR (or by an earlier start without a keychain) is sealed on first read and then removed.
 * - Not available (e.g. Linux without a keyring): falls back to the same plain 0600 `secrets.json` the headless
 *   server uses, with a warning, so the app still starts.
 * - A sealed file that cannot be opened (keychain locked, different OS user) is an error, never a silent
 *   regeneration: new keys would make every encrypted MFA secret and signed session unreadable.
 *
 * safeStorage's synchronous calls are deprecated in favour of async ones in recent Electron. Main reads once before
 * the server process starts and seals once when it generates keys, both off the request path, so the synchronous
 * calls cost nothing here; sealed data is compatible with decryptStringAsync, so a later move to the async calls
 * needs no migration.
 */
export function createSealedSecretStore(dataDir: string, warn: Warn = (m) => console.warn(m)): SecretStore {
  const sealedFile = join(dataDir, SEALED_FILE);
  const plain = plainSecretStore(dataDir);
  const plainFile = join(dataDir, PLAIN_FILE);

  if (!safeStorage.isEncryptionAvailable()) {
    if (existsSync(sealedFile)) {
      // Refuse rather than regenerate; see above. The error surfaces as the startup dialog.
      const locked = (): never => {
        throw new Error(
          `${sealedFile} is sealed with the OS keychain, which is unavailable now. Unlock the keyring or ` +
            'start the app in the desktop session that created it.',
        );
      };
      return { read: locked, write: locked };
    }
    warn(
      'gatehouse: OS encryption (safeStorage) is unavailable; keeping generated secrets in a plain 0600 file ' +
        `(${plainFile}). Install/unlock a keyring (libsecret or kwallet) to have them sealed.`,
    );
    return plain;
  }

  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    warn(
      'gatehouse: no OS keyring found; safeStorage falls back to a built-in key, so secrets.sealed is obfuscated ' +
        'rather than protected. Its 0600 mode is the real protection.',
    );
  }

  const seal = (secrets: Record<string, string>): void => {
    mkdirSync(dataDir, { recursive: true });
    writePrivate(sealedFile, safeStorage.encryptString(JSON.stringify(secrets)));
  };

  return {
    read() {
      if (existsSync(sealedFile)) {
        let json: string;
        try {
          json = safeStorage.decryptString(readFileSync(sealedFile));
        } catch (error) {
          throw new Error(
            `Cannot unseal ${sealedFile} with the OS keychain (${(error as Error).message}). It was sealed by ` +
              'another user or machine, or the keyring is locked.',
            { cause: error },
          );
        }
        return JSON.parse(json) as Record<string, string>;
      }
      const migrated = plain.read();
      if (migrated) {
        seal(migrated);
        rmSync(plainFile, { force: true });
      }
      return migrated;
    },
    write(secrets) {
      seal(secrets);
    },
  };
}
