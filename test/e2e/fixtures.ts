// Shared helpers for the console end-to-end tests: a real server in-process on a fresh data directory,
// TOTP codes that respect the server's replay protection, and screenshots for review.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generate } from 'otplib';
import { expect, type Page } from '@playwright/test';
import { simulatedDemoFleet } from '../../app/demo-fleet';
import { createServer } from '../../server/index';
import type { ServerOptions } from '../../server/options';

export type RunningServer = Awaited<ReturnType<typeof createServer>>;

export const SCREENS_DIR = join('test-results', 'screens');

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** What a spec may add to the server it starts (its test seams, such as `webhooks`); the rest is the fixture's. */
export type ExtraServerOptions = Omit<ServerOptions, 'dataDir' | 'port' | 'host' | 'staticDir' | 'env'>;

export async function startServer(
  env: Record<string, string> = {},
  options: ExtraServerOptions = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
  const server = await createServer({
    demoFleet: simulatedDemoFleet,
    ...options,
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

/** Page errors (uncaught exceptions in the console) collected for the end of a test. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** One API call as a script would make it (a spec's setup); a non-2xx answer throws with the server's words. */
export async function apiJson(
  ts: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  body?: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${ts.url}/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const postJson = (ts: TestServer, path: string, body: unknown, token?: string) =>
  apiJson(ts, 'POST', path, body, token);

/**
 * A demo technician whose writes need an MFA session: TOTP is enrolled once through the API (as the profile page
 * would), then every sign-in goes through the login page with a fresh code (the server refuses a replayed step).
 */
export class MfaTechnician {
  private secret = '';
  private lastStep = 0;

  constructor(
    private readonly ts: TestServer,
    readonly email: string,
    readonly password: string,
  ) {}

  async enrollTotp(): Promise<void> {
    const login = await postJson(this.ts, '/auth/login', { email: this.email, password: this.password });
    const token = login.accessToken as string;
    this.secret = (await postJson(this.ts, '/auth/mfa/setup', {}, token)).secret as string;
    const code = await freshTotp(this.secret);
    await postJson(this.ts, '/auth/mfa/enable', { code: code.code }, token);
    this.lastStep = code.step;
  }

  /** Signs in through the API with a fresh code (as a script would) and returns the MFA session's access token. */
  async apiToken(): Promise<string> {
    const login = await postJson(this.ts, '/auth/login', { email: this.email, password: this.password });
    const code = await freshTotp(this.secret, { after: this.lastStep });
    const session = await postJson(this.ts, '/auth/mfa/verify', {
      tempToken: login.tempToken,
      code: code.code,
    });
    this.lastStep = code.step;
    return session.accessToken as string;
  }

  /** Signs in through the login page; `greeting` is the first name the home page greets. */
  async signIn(page: Page, greeting: string): Promise<void> {
    await page.goto(`${this.ts.url}/login`);
    await page.getByTestId('login-email').fill(this.email);
    await page.getByTestId('login-password').fill(this.password);
    await page.getByTestId('login-submit').click();
    const code = await freshTotp(this.secret, { after: this.lastStep });
    await page.getByTestId('mfa-code').fill(code.code);
    await page.getByTestId('mfa-submit').click();
    this.lastStep = code.step;
    await expect(page.getByTestId('home-greeting')).toContainText(greeting);
  }
}

/**
 * A platform authenticator for this page's browser context (a CDP virtual authenticator with user verification,
 * as Windows Hello or Touch ID would be): WebAuthn step-up works for real in headless Chromium.
 */
export async function addPlatformAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Registers this browser's authenticator as the signed-in technician's approver device (asks the password again). */
export async function registerApproverDevice(page: Page, name: string, password: string): Promise<void> {
  await page.getByTestId('nav-approvals').click();
  await page.getByTestId('approvals-tab-devices').click();
  await page.getByTestId('approver-device-name').fill(name);
  await page.getByTestId('approver-device-password').fill(password);
  await page.getByTestId('register-approver-device').click();
  await expect(page.getByTestId('register-done')).toBeVisible();
}
