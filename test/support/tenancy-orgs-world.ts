import { afterAll, beforeAll } from 'vitest';
import { insertOrg, insertOrgUser, insertPartner, insertPartnerUser, plainToken, ROLES } from './seed';
import { startServer, type TestServer } from './server';

// The organizations suites' world: partners Alpha (organizations Aardvark and Badger) and Beta (Cheetah), Alpha's
// technicians with each kind of organization access, and an organization administrator of Aardvark. The bindings
// are live: a suite calls useOrganizationsWorld() once at its top and reads them inside its tests.

export let server: TestServer;
export let admin: string;
export let p1: { partnerId: string; adminRoleId: string };
export let p2: string;
export let orgA: string;
export let orgB: string;
export let orgC: string;
export const tokens: Record<'all' | 'selected' | 'none' | 'org' | 'tech', string> = {
  all: '',
  selected: '',
  none: '',
  org: '',
  tech: '',
};

export function useOrganizationsWorld(): void {
  beforeAll(async () => {
    server = await startServer();
    admin = (await server.api.login()).body.accessToken;
    p1 = insertPartner(server, { name: 'Alpha MSP', slug: 'alpha' });
    p2 = insertPartner(server, { name: 'Beta MSP', slug: 'beta' }).partnerId;
    orgA = insertOrg(server, p1.partnerId, 'Aardvark Ltd');
    orgB = insertOrg(server, p1.partnerId, 'Badger plc');
    orgC = insertOrg(server, p2, 'Cheetah Inc');
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'all@alpha.test', { orgAccess: 'all' });
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'selected@alpha.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'none@alpha.test', { orgAccess: 'none' });
    await insertPartnerUser(server, p1.partnerId, ROLES.partnerTechnician, 'tech@alpha.test', {
      orgAccess: 'all',
    });
    await insertOrgUser(server, orgA, ROLES.orgAdmin, 'admin@aardvark.test');
    tokens.all = await plainToken(server, 'all@alpha.test');
    tokens.selected = await plainToken(server, 'selected@alpha.test');
    tokens.none = await plainToken(server, 'none@alpha.test');
    tokens.tech = await plainToken(server, 'tech@alpha.test');
    tokens.org = await plainToken(server, 'admin@aardvark.test');
  });
  afterAll(async () => {
    await server.dispose();
  });
}

export const ids = (body: { data: Array<{ id: string }> }) => body.data.map((o) => o.id);
