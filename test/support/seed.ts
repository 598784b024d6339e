import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken, sha256Hex } from '../../server/crypto';
import type { OutboxRecord } from '../../server/mail';
import { PLATFORM_ADMIN_ROLE_ID } from '../../server/modules/users/store';
import { ADMIN, enrollTotp, totp, type TestServer } from './server';
import { membershipOf, userByEmail } from '../../server/modules/users';

// Fixtures written straight into SQLite, for tests that need a tenant tree before they exercise the API under
// test. Built-in role ids are fixed by the migrations.

export const ROLES = {
  platformAdmin: PLATFORM_ADMIN_ROLE_ID,
  partnerTechnician: '00000000-0000-4000-8000-000000000002',
  orgAdmin: '00000000-0000-4000-8000-000000000003',
  orgTechnician: '00000000-0000-4000-8000-000000000004',
  orgReadOnly: '00000000-0000-4000-8000-000000000005',
} as const;

export const PASSWORD = 'Correct-Horse-42!';

const now = () => new Date().toISOString();

export function insertPartner(
  server: TestServer,
  fields: { name?: string; slug?: string; status?: string; settings?: object } = {},
): { partnerId: string; adminRoleId: string } {
  const db = server.context.db;
  const partnerId = randomUUID();
  const adminRoleId = randomUUID();
  const at = now();
  db.prepare(
    'INSERT INTO partners (id, name, slug, status, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    partnerId,
    fields.name ?? 'Acme MSP',
    fields.slug ?? `acme-${partnerId.slice(0, 8)}`,
    fields.status ?? 'active',
    JSON.stringify(fields.settings ?? {}),
    at,
    at,
  );
  db.prepare(
    "INSERT INTO roles (id, partner_id, scope, name, is_system, created_at, updated_at) VALUES (?, ?, 'partner', 'Partner Admin', 1, ?, ?)",
  ).run(adminRoleId, partnerId, at, at);
  db.prepare("INSERT INTO role_permissions (role_id, resource, action) VALUES (?, '*', '*')").run(
    adminRoleId,
  );
  return { partnerId, adminRoleId };
}

export function insertOrg(server: TestServer, partnerId: string, name = 'Contoso'): string {
  const id = randomUUID();
  const at = now();
  server.context.db
    .prepare(
      'INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(id, partnerId, name, name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), at, at);
  return id;
}

export function insertSite(server: TestServer, orgId: string, name = 'Head office'): string {
  const id = randomUUID();
  const at = now();
  server.context.db
    .prepare('INSERT INTO sites (id, org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run(id, orgId, name, at, at);
  return id;
}

async function insertUser(server: TestServer, email: string, name: string): Promise<string> {
  const { hashPassword } = await import('../../server/modules/auth/passwords');
  const id = randomUUID();
  const at = now();
  server.context.db
    .prepare(
      "INSERT INTO users (id, email, name, password_hash, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'active', ?, ?)",
    )
    .run(id, email, name, await hashPassword(PASSWORD), at, at);
  return id;
}

export async function insertPartnerUser(
  server: TestServer,
  partnerId: string,
  roleId: string,
  email: string,
  access: { orgAccess: 'all' | 'selected' | 'none'; orgIds?: string[] },
): Promise<string> {
  const userId = await insertUser(server, email, email.split('@')[0] ?? email);
  server.context.db
    .prepare(
      'INSERT INTO partner_users (partner_id, user_id, role_id, org_access, org_ids, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(partnerId, userId, roleId, access.orgAccess, JSON.stringify(access.orgIds ?? []), now());
  return userId;
}

export async function insertOrgUser(
  server: TestServer,
  orgId: string,
  roleId: string,
  email: string,
): Promise<string> {
  const userId = await insertUser(server, email, email.split('@')[0] ?? email);
  server.context.db
    .prepare('INSERT INTO organization_users (org_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)')
    .run(orgId, userId, roleId, now());
  return userId;
}

/**
 * Limits an organization user to sites and/or device groups (the association's `siteIds` / `deviceGroupIds`), as
 * an invitation with those lists would; a list left out stays as it was.
 */
export function restrictOrgUser(
  server: TestServer,
  userId: string,
  limits: { siteIds?: string[]; deviceGroupIds?: string[] },
): void {
  const db = server.context.db;
  if (limits.siteIds)
    db.prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?').run(
      JSON.stringify(limits.siteIds),
      userId,
    );
  if (limits.deviceGroupIds)
    db.prepare('UPDATE organization_users SET device_group_ids = ? WHERE user_id = ?').run(
      JSON.stringify(limits.deviceGroupIds),
      userId,
    );
}

/**
 * Signs a user in and returns an access token carrying `mfa: true`: enrolls TOTP on first use (keeping the
 * secret per server and email) and answers the login challenge with a fresh code.
 */
const secrets = new WeakMap<TestServer, Map<string, string>>();
export async function mfaToken(
  server: TestServer,
  email = ADMIN.email,
  password = ADMIN.password,
): Promise<string> {
  const known = secrets.get(server) ?? new Map<string, string>();
  secrets.set(server, known);
  const secret = known.get(email);
  if (!secret) {
    const enrolled = await enrollTotp(server, email, password);
    known.set(email, enrolled.secret);
    return enrolled.session.accessToken as string;
  }
  const login = await server.api.login(email, password);
  if (!login.body.mfaRequired) throw new Error(`expected an MFA challenge: ${JSON.stringify(login.body)}`);
  // A TOTP code is accepted once per time step: wait for the next step if this one was already spent.
  for (let attempt = 0; attempt < 2; attempt++) {
    const verify = await server.api.post('/auth/mfa/verify', {
      tempToken: login.body.tempToken,
      code: await totp(secret, Math.floor(Date.now() / 1000) + attempt * 30),
    });
    if (verify.status === 200) return verify.body.accessToken as string;
  }
  throw new Error('MFA verification failed');
}

/** Signs a user in without MFA (the session's `mfa` claim is false). */
export async function plainToken(server: TestServer, email: string, password = PASSWORD): Promise<string> {
  const login = await server.api.login(email, password);
  if (login.status !== 200 || !login.body.accessToken)
    throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return login.body.accessToken as string;
}

/** Every message written to the outbox so far, oldest first. */
export function readOutbox(server: TestServer): OutboxRecord[] {
  const dir = server.config.mailOutboxDir;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as OutboxRecord);
}

/**
 * The message to `to` that `send` causes, once it is in the outbox. Mail that leaves after the answer (a password
 * reset link is issued only once the uniform answer has gone out) may land a moment after the response arrives.
 */
export async function nextMessageTo(
  server: TestServer,
  to: string,
  send: () => Promise<unknown>,
): Promise<{ message: OutboxRecord; token: string | null }> {
  const count = () => readOutbox(server).filter((m) => m.to.toLowerCase() === to.toLowerCase()).length;
  const before = count();
  await send();
  for (let waited = 0; count() === before; waited += 10) {
    if (waited >= 5_000) throw new Error(`no message to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return lastMessageTo(server, to);
}

/** The newest outbox message to `to`, and the first `token=` value in its text (links carry tokens). */
export function lastMessageTo(
  server: TestServer,
  to: string,
): { message: OutboxRecord; token: string | null } {
  const message = readOutbox(server)
    .filter((m) => m.to.toLowerCase() === to.toLowerCase())
    .at(-1);
  if (!message) throw new Error(`no message to ${to}`);
  const token = /token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1] ?? null;
  return { message, token };
}

/**
 * The Acme tree of the users, roles and invitations suites: Acme MSP with organizations Contoso and Fabrikam,
 * and Other MSP with Initech. Each suite adds its own users to it.
 */
export function insertAcmeTree(server: TestServer): {
  partnerId: string;
  adminRoleId: string;
  otherPartnerId: string;
  otherAdminRoleId: string;
  orgA: string;
  orgB: string;
  orgX: string;
} {
  const { partnerId, adminRoleId } = insertPartner(server, { name: 'Acme MSP' });
  const orgA = insertOrg(server, partnerId, 'Contoso');
  const orgB = insertOrg(server, partnerId, 'Fabrikam');
  const other = insertPartner(server, { name: 'Other MSP' });
  const orgX = insertOrg(server, other.partnerId, 'Initech');
  return {
    partnerId,
    adminRoleId,
    otherPartnerId: other.partnerId,
    otherAdminRoleId: other.adminRoleId,
    orgA,
    orgB,
    orgX,
  };
}

/** A new session (refresh family) for the user, as a sign-in starts one; returns its id, the tokens' `sid`. */
export function startSession(server: TestServer, userId: string, mfa = true): string {
  return server.context.tokens.issueRefresh(userId, mfa, { ipAddress: null, userAgent: null }).sessionId;
}

/**
 * A valid access token for a seeded user, as login would issue it (mfa: true unless told otherwise): a session
 * is started and the token signed directly, so a suite needs no sign-in round trip per caller.
 */
export async function signedToken(server: TestServer, email: string, mfa = true): Promise<string> {
  const { db, tokens } = server.context;
  const user = userByEmail(db, email)!;
  const sessionId = startSession(server, user.id, mfa);
  return tokens.signAccess(user.id, membershipOf(db, user.id)!, mfa, user.token_version, sessionId);
}

/** The newest audit entry of `action` on `resourceId`. */
export function lastAudit(server: TestServer, action: string, resourceId: string) {
  return server.context.db
    .prepare('SELECT * FROM audit_logs WHERE action = ? AND resource_id = ? ORDER BY seq DESC')
    .get(action, resourceId) as { org_id: string | null; actor_email: string; details: string } | undefined;
}

/** An API key row written straight into SQLite, for suites where the /api-keys module is not under test. */
export function insertApiKey(
  server: TestServer,
  orgId: string,
  scopes: string[] = ['*'],
): { id: string; key: string } {
  const id = randomUUID();
  const key = `svc_${randomToken(24)}`;
  const at = now();
  server.context.db
    .prepare(
      `INSERT INTO api_keys (id, org_id, name, key_hash, key_prefix, scopes, created_by, created_at, updated_at)
       VALUES (?, ?, 'integration', ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, orgId, sha256Hex(key), key.slice(0, 12), JSON.stringify(scopes), randomUUID(), at, at);
  return { id, key };
}

/** A custom organization role with exactly these `resource:action` grants, written straight into SQLite. */
export function insertOrgRole(
  server: TestServer,
  orgId: string,
  name: string,
  grants: Array<[string, string]>,
): string {
  const db = server.context.db;
  const roleId = randomUUID();
  const at = now();
  db.prepare(
    "INSERT INTO roles (id, org_id, scope, name, created_at, updated_at) VALUES (?, ?, 'organization', ?, ?, ?)",
  ).run(roleId, orgId, name, at, at);
  const grant = db.prepare('INSERT INTO role_permissions (role_id, resource, action) VALUES (?, ?, ?)');
  for (const [resource, action] of grants) grant.run(roleId, resource, action);
  return roleId;
}

/** A PAM rule row (snake_case columns of pam_rules) written straight into SQLite; defaults fill the rest. */
export function insertPamRule(server: TestServer, orgId: string, columns: Record<string, unknown>): string {
  const id = randomUUID();
  const at = now();
  const row = {
    id,
    org_id: orgId,
    name: 'rule',
    verdict: 'require_approval',
    priority: 100,
    created_at: at,
    updated_at: at,
    ...columns,
  };
  const names = Object.keys(row);
  server.context.db
    .prepare(`INSERT INTO pam_rules (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`)
    .run(row);
  return id;
}
