import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

describe('runtime contract', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 4600,
      host: '127.0.0.1',
      enable2fa: true,
      enableRegistration: true,
      autoMigrate: true,
      seedDemo: false,
      webauthnRpId: 'localhost',
      offboardingDrainWindowHours: 72,
    });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.mailOutboxDir).toBe(`${c.dataDir}/outbox`);
  });

  it('reads booleans, numbers and lists, and treats blank values as unset', () => {
    const c = loadConfig({
      PORT: '4700',
      ENABLE_2FA: 'false',
      AUTO_MIGRATE: '0',
      TRUSTED_PROXY_CIDRS: '10.0.0.0/8, 192.168.0.0/16',
      HOST: '',
    });
    expect(c).toMatchObject({
      port: 4700,
      enable2fa: false,
      autoMigrate: false,
      host: '127.0.0.1',
      trustedProxyCidrs: ['10.0.0.0/8', '192.168.0.0/16'],
    });
  });

  it('lets explicit options win over the environment', () => {
    expect(loadConfig({ PORT: '4700', DATA_DIR: '/tmp/a' }, { port: 0, dataDir: '/tmp/b' })).toMatchObject({
      port: 0,
      dataDir: '/tmp/b',
    });
  });

  it('refuses bad values with a message naming the setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ ENABLE_2FA: 'maybe' })).toThrow(/ENABLE_2FA/);
    expect(() => loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com' })).toThrow(
      /both BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD/,
    );
    expect(() =>
      loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com', BOOTSTRAP_ADMIN_PASSWORD: 'short' }),
    ).toThrow(/at least 12/);
  });
});
