import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import type { SecretStore } from '../../server/options';
import { loadSecrets } from '../../server/secrets';

// The enrollment-key pepper (spec 1): the first configured of ENROLLMENT_KEY_PEPPER, APP_ENCRYPTION_KEY,
// SECRET_ENCRYPTION_KEY, JWT_SECRET; in production the server refuses to start when none is configured.

function memoryStore(initial: Record<string, string> | null = null): SecretStore {
  let stored = initial;
  return {
    read: () => stored,
    write: (secrets) => {
      stored = { ...secrets };
    },
  };
}

const long = (c: string) => c.repeat(40);

describe('enrollment key pepper', () => {
  it('takes the first configured setting in the spec order', () => {
    const pick = (env: Record<string, string>) =>
      loadSecrets(loadConfig(env), memoryStore()).enrollmentKeyPepper;
    expect(
      pick({ ENROLLMENT_KEY_PEPPER: long('p'), APP_ENCRYPTION_KEY: long('a'), JWT_SECRET: long('j') }),
    ).toBe(long('p'));
    expect(pick({ APP_ENCRYPTION_KEY: long('a'), SECRET_ENCRYPTION_KEY: long('s') })).toBe(long('a'));
    expect(pick({ SECRET_ENCRYPTION_KEY: long('s'), JWT_SECRET: long('j') })).toBe(long('s'));
    expect(pick({ JWT_SECRET: long('j') })).toBe(long('j'));
  });

  it('falls back to the generated encryption key outside production', () => {
    const store = memoryStore();
    const secrets = loadSecrets(loadConfig({}), store);
    expect(secrets.enrollmentKeyPepper).toBe(secrets.appEncryptionKey);
    expect(store.read()?.APP_ENCRYPTION_KEY).toBe(secrets.appEncryptionKey);
  });

  it('refuses to start in production without a configured pepper', () => {
    expect(() => loadSecrets(loadConfig({ NODE_ENV: 'production' }), memoryStore())).toThrow(ConfigError);
    expect(() => loadSecrets(loadConfig({ NODE_ENV: 'production' }), memoryStore())).toThrow(
      /ENROLLMENT_KEY_PEPPER/,
    );
    const ok = loadSecrets(
      loadConfig({ NODE_ENV: 'production', ENROLLMENT_KEY_PEPPER: long('p') }),
      memoryStore(),
    );
    expect(ok.enrollmentKeyPepper).toBe(long('p'));
  });
});
