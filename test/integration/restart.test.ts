import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MigrationError } from '../../server/index';
import { ADMIN, enrollTotp, startServer, totp, type TestServer } from '../support/server';

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  servers = [];
});

describe('restart on the same data directory', () => {
  it('keeps users, secrets, MFA secrets and sessions', async () => {
    const first = await startServer();
    servers.push(first);
    const { secret, session } = await enrollTotp(first);
    const secretsBefore = readFileSync(join(first.dataDir, 'secrets.json'), 'utf8');
    expect(JSON.parse(secretsBefore)).toMatchObject({
      APP_ENCRYPTION_KEY: expect.any(String),
      JWT_SECRET: expect.any(String),
    });
    await first.close();

    const second = await startServer({ dataDir: first.dataDir });
    servers.push(second);
    expect(readFileSync(join(first.dataDir, 'secrets.json'), 'utf8')).toBe(secretsBefore);
    expect(second.setupToken).toBeNull();
    // The access token signed before the restart still verifies, and the refresh token still rotates.
    expect((await second.api.get('/auth/me', session.accessToken)).status).toBe(200);
    expect((await second.api.post('/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(200);
    // The sealed TOTP secret still opens with the kept key.
    const login = await second.api.login();
    const verify = await second.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: await totp(secret, Math.floor(Date.now() / 1000) + 30),
    });
    expect(verify.status).toBe(200);
    const count = second.context.db
      .prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?')
      .get(ADMIN.email) as { n: number };
    expect(count.n).toBe(1);
  });

  it('keeps the secrets file and the database readable by their owner only', async () => {
    const s = await startServer();
    servers.push(s);
    const { statSync } = await import('node:fs');
    expect(statSync(join(s.dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(s.dataDir, 'gatehouse.db')).mode & 0o777).toBe(0o600);
  });

  it('refuses to take over a desktop data directory whose secrets are sealed by the OS keychain', async () => {
    const { mkdtempSync, writeFileSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
    writeFileSync(join(dir, 'secrets.sealed'), 'opaque');
    await expect(startServer({ dataDir: dir })).rejects.toThrow(/belongs to the desktop app/);
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });

  it('refuses to run on a database written by a newer release', async () => {
    const s = await startServer();
    await s.close();
    const db = new Database(join(s.dataDir, 'gatehouse.db'));
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from_the_future', '2030-01-01')",
    ).run();
    db.close();
    await expect(startServer({ dataDir: s.dataDir })).rejects.toThrow(MigrationError);
    await expect(startServer({ dataDir: s.dataDir })).rejects.toThrow(
      /schema version 999, newer than this release/,
    );
  });

  it('with AUTO_MIGRATE=false, refuses an unmigrated database and names the command', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-nomigrate-'));
    await expect(startServer({ dataDir: dir, env: { AUTO_MIGRATE: 'false' } })).rejects.toThrow(
      /AUTO_MIGRATE is false.*migrate/,
    );
  });
});
