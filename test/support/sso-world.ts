import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createServer } from '../../server/index';
import type { SsoOptions } from '../../server/modules/sso';
import { startTestIdp, type TestIdp } from './oidc-provider';
import { insertOrg, insertPartner, signedToken } from './seed';
import { ADMIN, ApiClient, type TestServer } from './server';
import { SsoBrowser } from './sso-browser';

// A Gatehouse server and a real OpenID provider on loopback (SSO_ALLOW_INSECURE_ISSUER: the IdP speaks http on
// 127.0.0.1), a partner with one organization, the platform administrator's MFA session, TXT records the test
// publishes itself, and every log line the server writes, kept to prove no secret reaches them.

export interface SsoWorld {
  server: TestServer;
  idp: TestIdp;
  /** The platform administrator's access token (mfa: true). */
  admin: string;
  partnerId: string;
  partnerAdminRoleId: string;
  orgId: string;
  /** TXT records by name, answered by the server's TXT resolver. */
  txt: Map<string, string[]>;
  logs: string[];
  browser(): SsoBrowser;
  dispose(): Promise<void>;
}

export async function startSsoWorld(
  options: { env?: Record<string, string>; sso?: SsoOptions } = {},
): Promise<SsoWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-sso-'));
  const txt = new Map<string, string[]>();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const running = await createServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    staticDir: null,
    logger: pino({ level: 'debug' }, sink),
    env: {
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      SSO_ALLOW_INSECURE_ISSUER: 'true',
      ...options.env,
    },
    sso: {
      txtResolver: (name) => {
        const records = txt.get(name);
        return records ? Promise.resolve(records.map((r) => [r])) : Promise.reject(new Error('ENODATA'));
      },
      ...options.sso,
    },
  });
  const server: TestServer = {
    ...running,
    dataDir,
    api: new ApiClient(running.url),
    async dispose() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const idp = await startTestIdp(`${running.url}/api/v1/sso/callback`);
  const { partnerId, adminRoleId } = insertPartner(server, { name: 'Northwind SSO' });
  const orgId = insertOrg(server, partnerId, 'Contoso SSO');
  return {
    server,
    idp,
    admin: await signedToken(server, ADMIN.email, true),
    partnerId,
    partnerAdminRoleId: adminRoleId,
    orgId,
    txt,
    logs,
    browser: () => new SsoBrowser(running.url),
    async dispose() {
      await idp.close();
      await server.dispose();
    },
  };
}

/** Creates an organization provider against the world's IdP as the platform administrator; 201 or the test fails. */
export async function createOrgProvider(
  world: SsoWorld,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  const res = await world.server.api.request('POST', '/sso/providers', {
    token: world.admin,
    body: {
      name: 'Test IdP',
      type: 'oidc',
      orgId: world.orgId,
      issuer: world.idp.issuer,
      clientId: world.idp.clientId,
      clientSecret: world.idp.clientSecret,
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`create provider: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: string };
}

export async function setStatus(world: SsoWorld, id: string, status: string): Promise<void> {
  const res = await world.server.api.request('POST', `/sso/providers/${id}/status`, {
    token: world.admin,
    body: { status },
  });
  if (res.status !== 200) throw new Error(`status: ${res.status} ${JSON.stringify(res.body)}`);
}
