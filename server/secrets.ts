import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config';
import type { SecretStore } from './options';

// Secrets that the environment does not provide are generated on first start and kept in DATA_DIR, so a
// restart on the same data directory keeps every session, encrypted MFA secret and hashed key valid.

export interface Secrets {
  appEncryptionKey: string;
  jwtSecret: string;
  /** First configured of ENROLLMENT_KEY_PEPPER, APP_ENCRYPTION_KEY, SECRET_ENCRYPTION_KEY, JWT_SECRET (spec 1). */
  enrollmentKeyPepper: string;
}

const GENERATED = ['APP_ENCRYPTION_KEY', 'JWT_SECRET'] as const;

/** A JSON file readable by its owner only. */
export function fileSecretStore(dataDir: string): SecretStore {
  const file = join(dataDir, 'secrets.json');
  return {
    read() {
      // The desktop app seals its secrets with the OS keychain. Generating fresh ones here would make every
      // encrypted MFA secret and issued session in this data directory unreadable, so refuse instead.
      if (existsSync(join(dataDir, 'secrets.sealed'))) {
        throw new ConfigError(
          `${dataDir} belongs to the desktop app: its secrets are sealed with the OS keychain (secrets.sealed). ` +
            'Open it with the desktop app, or point DATA_DIR elsewhere.',
        );
      }
      if (!existsSync(file)) return null;
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    },
    write(secrets) {
      mkdirSync(dataDir, { recursive: true });
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, JSON.stringify(secrets, null, 2), { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, file); // atomic: a crash never leaves a half-written key file
    },
  };
}

export function loadSecrets(config: Config, store: SecretStore): Secrets {
  const stored = store.read() ?? {};
  const env = config.secretOverrides;
  let changed = false;
  for (const name of GENERATED) {
    if (!env[name] && !stored[name]) {
      stored[name] = randomBytes(48).toString('base64url');
      changed = true;
    }
  }
  // Spec 1: production refuses to start without a configured pepper; a generated secret does not count, since
  // enrollment keys already handed out would silently stop working if the data directory were replaced.
  if (
    config.production &&
    !env.ENROLLMENT_KEY_PEPPER &&
    !env.APP_ENCRYPTION_KEY &&
    !env.SECRET_ENCRYPTION_KEY &&
    !env.JWT_SECRET
  ) {
    throw new ConfigError(
      'Invalid configuration: production needs ENROLLMENT_KEY_PEPPER (or APP_ENCRYPTION_KEY, SECRET_ENCRYPTION_KEY, JWT_SECRET)',
    );
  }
  if (changed) store.write(stored);
  return resolveSecrets(config, stored);
}

/**
 * The secrets of a data directory that already has them, for tools that must never generate any (a backup taken
 * beside a running server): generating here would hand the backup keys the database was never encrypted with.
 */
export function readSecrets(config: Config, store: SecretStore): Secrets {
  const stored = store.read() ?? {};
  const missing = GENERATED.filter((name) => !config.secretOverrides[name] && !stored[name]);
  if (missing.length) {
    throw new ConfigError(
      `${config.dataDir} has no ${missing.join(' or ')} yet: start the server on it once, or set them in the environment`,
    );
  }
  return resolveSecrets(config, stored);
}

function resolveSecrets(config: Config, stored: Record<string, string>): Secrets {
  const env = config.secretOverrides;
  const appEncryptionKey = env.APP_ENCRYPTION_KEY ?? stored.APP_ENCRYPTION_KEY!;
  const jwtSecret = env.JWT_SECRET ?? stored.JWT_SECRET!;
  return {
    appEncryptionKey,
    jwtSecret,
    enrollmentKeyPepper:
      env.ENROLLMENT_KEY_PEPPER ??
      env.APP_ENCRYPTION_KEY ??
      env.SECRET_ENCRYPTION_KEY ??
      env.JWT_SECRET ??
      // Written by a restore when the backed-up install took its pepper from the environment.
      stored.ENROLLMENT_KEY_PEPPER ??
      appEncryptionKey,
  };
}

/**
 * What a restored copy of the data directory needs in its secrets file to read the database as it was: the
 * effective keys, wherever they came from (file or environment). The pepper is kept only when it is not the
 * encryption key already listed.
 */
export function portableSecrets(secrets: Secrets): Record<string, string> {
  return {
    APP_ENCRYPTION_KEY: secrets.appEncryptionKey,
    JWT_SECRET: secrets.jwtSecret,
    ...(secrets.enrollmentKeyPepper !== secrets.appEncryptionKey
      ? { ENROLLMENT_KEY_PEPPER: secrets.enrollmentKeyPepper }
      : {}),
  };
}
