import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { simulatedDemoFleet } from '../../app/demo-fleet';
import { createServer, type RunningServer } from '../../server/index';

// Test harness: a real server on a real SQLite file in a fresh temporary directory, reached over real HTTP.

export const ADMIN = { email: 'admin@gatehouse.test', password: 'Sturdy-Gate-2026!' };

export interface TestServer extends RunningServer {
  dataDir: string;
  api: ApiClient;
  /** Closes the server and removes its data directory. */
  dispose(): Promise<void>;
}

export async function startServer(
  options: { dataDir?: string; env?: Record<string, string>; bootstrap?: boolean; staticDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const env: Record<string, string> = { LOG_LEVEL: 'silent', ...options.env };
  if (options.bootstrap !== false) {
    env.BOOTSTRAP_ADMIN_EMAIL = ADMIN.email;
    env.BOOTSTRAP_ADMIN_PASSWORD = ADMIN.password;
  }
  const server = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    env,
    staticDir: options.staticDir ?? null,
    // As `npm run serve` composes it: demo mode runs the bundled simulator.
    demoFleet: simulatedDemoFleet,
  });
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = any>(path: string, token?: string) => this.request<T>('GET', path, { token });
  post = <T = any>(path: string, body?: unknown, token?: string) =>
    this.request<T>('POST', path, { body: body ?? {}, token });

  async login(email = ADMIN.email, password = ADMIN.password) {
    return this.post('/auth/login', { email, password });
  }
}

/** A TOTP code for `secret`, at `epoch` seconds (defaults to now). */
export const totp = (secret: string, epoch?: number): Promise<string> =>
  generate({ secret, ...(epoch !== undefined ? { epoch } : {}) });

/** Signs the bootstrap admin in and enrolls TOTP; returns the secret, recovery codes and an MFA session. */
export async function enrollTotp(server: TestServer, email = ADMIN.email, password = ADMIN.password) {
  const login = await server.api.login(email, password);
  const setup = await server.api.post('/auth/mfa/setup', {}, login.body.accessToken);
  const enable = await server.api.post(
    '/auth/mfa/enable',
    { code: await totp(setup.body.secret) },
    login.body.accessToken,
  );
  if (enable.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enable.body)}`);
  return {
    secret: setup.body.secret as string,
    recoveryCodes: enable.body.recoveryCodes as string[],
    session: enable.body,
  };
}

/** Creates a partner, an organization and an organization-scoped user straight in SQLite (tenancy APIs come later). */
export async function seedOrgUser(server: TestServer, email: string, password: string) {
  const { hashPassword } = await import('../../server/modules/auth/passwords');
  const db = server.context.db;
  const now = new Date().toISOString();
  const partnerId = randomUUID();
  const orgId = randomUUID();
  const roleId = randomUUID();
  const userId = randomUUID();
  db.prepare(
    "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES (?, 'Acme MSP', ?, ?, ?)",
  ).run(partnerId, `acme-${partnerId.slice(0, 8)}`, now, now);
  db.prepare(
    "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, ?, 'Contoso', 'contoso', ?, ?)",
  ).run(orgId, partnerId, now, now);
  db.prepare(
    "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', 'Technician', ?, ?)",
  ).run(roleId, orgId, now, now);
  db.prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, 'audit', 'read')").run(
    roleId,
  );
  db.prepare(
    "INSERT INTO users (id, email, name, password_hash, status, created_at, updated_at) VALUES (?, ?, 'Org Tech', ?, 'active', ?, ?)",
  ).run(userId, email, await hashPassword(password), now, now);
  db.prepare('INSERT INTO organization_users (org_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)').run(
    orgId,
    userId,
    roleId,
    now,
  );
  return { partnerId, orgId, roleId, userId };
}

/** Waits until the asynchronous audit writer has flushed (it writes on the next turn of the event loop). */
export async function auditSettled(server: TestServer): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  server.context.audit.flush();
}
