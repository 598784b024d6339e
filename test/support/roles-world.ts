import { afterAll, beforeAll } from 'vitest';
import {
  insertAcmeTree,
  insertOrgUser,
  insertPartnerUser,
  lastAudit as lastAuditOf,
  ROLES,
  signedToken,
} from './seed';
import { startServer, type TestServer } from './server';

// /roles against a real server: visibility per tenant, immutable built-in roles, inheritance without cycles,
// effective permissions with their source, clone, delete rules, and no permission escalation.
//
// Shared by the /roles suites (test/integration/roles-*.test.ts). The bindings are live: a suite calls useRolesWorld()
// once at its top and reads them inside its tests.

export let server: TestServer;

export const tokenFor = (email: string, mfa = true) => signedToken(server, email, mfa);

export const lastAudit = (action: string, resourceId: string) => lastAuditOf(server, action, resourceId);

export const perms = (...list: string[]) =>
  list.map((p) => {
    const [resource, action] = p.split(':');
    return { resource, action };
  });

export let partnerId: string;
export let adminRoleId: string;
export let otherPartnerId: string;
export let otherAdminRoleId: string;
export let orgA: string;
export let orgB: string;
export let orgX: string;
export let orgAdminToken: string;

/** Registers the world's hooks; call once at the top of each suite that uses it. */
export function useRolesWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    ({ partnerId, adminRoleId, otherPartnerId, otherAdminRoleId, orgA, orgB, orgX } = insertAcmeTree(server));
    await insertPartnerUser(server, partnerId, adminRoleId, 'padmin@acme.test', { orgAccess: 'all' });
    await insertPartnerUser(server, partnerId, adminRoleId, 'pselected@acme.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    await insertPartnerUser(server, otherPartnerId, otherAdminRoleId, 'padmin@other.test', {
      orgAccess: 'all',
    });
    await insertOrgUser(server, orgA, ROLES.orgAdmin, 'oadmin@contoso.test');
    await insertOrgUser(server, orgA, ROLES.orgTechnician, 'otech@contoso.test');
    await insertOrgUser(server, orgX, ROLES.orgAdmin, 'oadmin@initech.test');
    await insertOrgUser(server, orgX, ROLES.orgTechnician, 'otech1@initech.test');
    await insertOrgUser(server, orgX, ROLES.orgTechnician, 'otech2@initech.test');
    orgAdminToken = await tokenFor('oadmin@contoso.test');
  });

  afterAll(async () => {
    await server.dispose();
  });
}
