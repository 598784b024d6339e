// Shared helpers for the console end-to-end tests: a real server in-process on a fresh data directory,
// TOTP codes that respect the server's replay protection, and screenshots for review.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generate } from 'otplib';
import type { Page } from '@playwright/test';
import { createServer } from '../../server/index';

export type RunningServer = Awaited<ReturnType<typeof createServer>>;

export const SCREENS_DIR = join('test-results', 'screens');

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    // Absolute: the server hands this path to res.sendFile for the history fallback.
    staticDir: resolve('out/renderer'),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  return {
    server,
    // localhost, not 127.0.0.1: the console, cookies and WebAuthn all expect the localhost origin.
    url: `http://localhost:${server.port}`,
    dataDir,
    stop: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const PERIOD_SECONDS = 30;

export function totpStep(at = Date.now()): number {
  return Math.floor(at / 1000 / PERIOD_SECONDS);
}

/**
 * A TOTP code from a step later than `after` (the server rejects a code replayed within its step), generated
 * with at least `marginSeconds` left in its window so it is still current when the server checks it.
 */
export async function freshTotp(
  secret: string,
  options: { after?: number; marginSeconds?: number } = {},
): Promise<{ code: string; step: number }> {
  const margin = options.marginSeconds ?? 4;
  for (;;) {
    const now = Date.now();
    const step = totpStep(now);
    const left = PERIOD_SECONDS - ((now / 1000) % PERIOD_SECONDS);
    if ((options.after === undefined || step > options.after) && left >= margin) {
      return { code: await generate({ secret }), step };
    }
    const waitMs =
      options.after !== undefined && step <= options.after
        ? (options.after + 1) * PERIOD_SECONDS * 1000 - now + 200
        : left * 1000 + 200;
    await new Promise((resolve) => setTimeout(resolve, Math.max(200, waitMs)));
  }
}

/** Every outbox message to `to`, oldest first (the server writes one JSON file per email or SMS). */
export function outboxTo(server: RunningServer, to: string): Array<{ subject: string; text: string }> {
  const dir = server.config.mailOutboxDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map(
      (name) =>
        JSON.parse(readFileSync(join(dir, name), 'utf8')) as { to: string; subject: string; text: string },
    )
    .filter((message) => message.to.toLowerCase() === to.toLowerCase());
}

export async function screen(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  // Let transitions and fonts settle so the picture shows what an operator sees.
  await page.evaluate(async () => {
    await (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts
      .ready;
  });
  await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`), animations: 'disabled' });
}
