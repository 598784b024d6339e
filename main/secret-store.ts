// Where the desktop keeps the secrets the server generates on first start (APP_ENCRYPTION_KEY, JWT_SECRET).
// DESIGN §2: in DATA_DIR, 0600, and on the desktop sealed with the OS keychain through safeStorage, so a copied
// data directory is useless without the operator's login session.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { SecretStore } from '../server/options';
import { fileSecretStore } from '../server/secrets';

export const SEALED_FILE = 'secrets.sealed';

type Warn = (message: string) => void;

/** Writes a file only its owner can read, atomically (a crash never leaves half a key file behind). */
function writePrivate(file: string, data: Buffer): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600); // the mode above is masked by umask on some systems
  renameSync(tmp, file);
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
 * safeStorage's synchronous calls are deprecated in favour of async ones in recent Electron, but the server's
 * SecretStore contract is synchronous (secrets are loaded inside createServer); sealed data is compatible with
 * decryptStringAsync, so a later move to an async store needs no migration.
 */
export function createSealedSecretStore(dataDir: string, warn: Warn = (m) => console.warn(m)): SecretStore {
  const sealedFile = join(dataDir, SEALED_FILE);
  const plain = fileSecretStore(dataDir);
  const plainFile = join(dataDir, 'secrets.json');

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
