import { afterAll, beforeAll } from 'vitest';
import { insertOrg, insertPartner, insertPartnerUser, ROLES, signedToken } from './seed';
import { startServer, type TestServer } from './server';

// The import suites' world: partner Alpha (organizations Aardvark and Badger) with an administrator who has an
// MFA session, the same administrator without one, a partner technician limited to selected organizations, and
// partner Beta with its own Aardvark (a name Alpha must never match). Bindings are live: a suite calls
// useImportWorld() once and reads them inside its tests.

export let server: TestServer;
export let alpha: string;
export let beta: string;
export let aardvark: string;
export let badger: string;
export let betaAardvark: string;
export const tokens = { admin: '', noMfa: '', selected: '', betaAdmin: '', platform: '' };

export function useImportWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    const a = insertPartner(server, { name: 'Alpha MSP', slug: 'alpha' });
    const b = insertPartner(server, { name: 'Beta MSP', slug: 'beta' });
    alpha = a.partnerId;
    beta = b.partnerId;
    aardvark = insertOrg(server, alpha, 'Aardvark Ltd');
    badger = insertOrg(server, alpha, 'Badger plc');
    betaAardvark = insertOrg(server, beta, 'Aardvark Ltd');
    await insertPartnerUser(server, alpha, a.adminRoleId, 'admin@alpha.test', { orgAccess: 'all' });
    await insertPartnerUser(server, alpha, a.adminRoleId, 'selected@alpha.test', {
      orgAccess: 'selected',
      orgIds: [aardvark],
    });
    await insertPartnerUser(server, alpha, ROLES.partnerTechnician, 'tech@alpha.test', { orgAccess: 'all' });
    await insertPartnerUser(server, beta, b.adminRoleId, 'admin@beta.test', { orgAccess: 'all' });
    tokens.admin = await signedToken(server, 'admin@alpha.test');
    tokens.noMfa = await signedToken(server, 'admin@alpha.test', false);
    tokens.selected = await signedToken(server, 'selected@alpha.test');
    tokens.betaAdmin = await signedToken(server, 'admin@beta.test');
    tokens.platform = await signedToken(server, 'admin@gatehouse.test');
  });
  afterAll(async () => {
    await server.dispose();
  });
}

/** Every organization of a partner (soft-deleted too), by name. */
export function orgsOf(partnerId: string) {
  return server.context.db
    .prepare(
      'SELECT id, name, slug, deleted_at FROM organizations WHERE partner_id = ? ORDER BY name, created_at',
    )
    .all(partnerId) as Array<{ id: string; name: string; slug: string; deleted_at: string | null }>;
}

export function sitesOf(orgId: string) {
  return server.context.db
    .prepare('SELECT id, name, timezone, address, contact FROM sites WHERE org_id = ? ORDER BY name')
    .all(orgId) as Array<{ id: string; name: string; timezone: string; address: string; contact: string }>;
}
