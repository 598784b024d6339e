import { ADMIN, type TestServer } from './server';
import {
  insertOrg,
  insertOrgUser,
  insertPartner,
  insertPartnerUser,
  insertSite,
  mfaToken,
  PASSWORD,
  plainToken,
  ROLES,
} from './seed';

// The tenant tree and callers that the API key and enrollment key suites both test against, built once here so
// the two suites keep asking the same questions of the same world. Partner P1 owns organizations A1 and A2,
// partner P2 owns B1. Callers: the system administrator; P1 users with organization access all, selected (A1)
// and none; an organization administrator and technician of A1; an administrator of B1; and an A1
// administrator whose session did not pass MFA.

export interface KeyCallerIds {
  p1: string;
  p2: string;
  a1: string;
  a2: string;
  b1: string;
  siteA1: string;
  siteB1: string;
  /** The system administrator. */
  adminId: string;
  /** admin@a1.test, the A1 organization administrator. */
  orgAdminId: string;
}

export interface KeyCallerTokens {
  system: string;
  partnerAll: string;
  partnerSelected: string;
  partnerNone: string;
  orgAdmin: string;
  orgTech: string;
  orgAdminB: string;
  noMfa: string;
}

export async function seedKeyCallers(
  server: TestServer,
): Promise<{ ids: KeyCallerIds; tok: KeyCallerTokens }> {
  const p1 = insertPartner(server, { name: 'Northwind MSP' });
  const p2 = insertPartner(server, { name: 'Fabrikam MSP' });
  const a1 = insertOrg(server, p1.partnerId, 'Alpha One');
  const a2 = insertOrg(server, p1.partnerId, 'Alpha Two');
  const b1 = insertOrg(server, p2.partnerId, 'Bravo One');
  const siteA1 = insertSite(server, a1, 'Alpha HQ');
  const siteB1 = insertSite(server, b1, 'Bravo HQ');
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'all@p1.test', { orgAccess: 'all' });
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'selected@p1.test', {
    orgAccess: 'selected',
    orgIds: [a1],
  });
  await insertPartnerUser(server, p1.partnerId, p1.adminRoleId, 'none@p1.test', { orgAccess: 'none' });
  const orgAdminId = await insertOrgUser(server, a1, ROLES.orgAdmin, 'admin@a1.test');
  await insertOrgUser(server, a1, ROLES.orgTechnician, 'tech@a1.test');
  await insertOrgUser(server, b1, ROLES.orgAdmin, 'admin@b1.test');
  await insertOrgUser(server, a1, ROLES.orgAdmin, 'nomfa@a1.test');
  const tok: KeyCallerTokens = {
    system: await mfaToken(server),
    partnerAll: await mfaToken(server, 'all@p1.test', PASSWORD),
    partnerSelected: await mfaToken(server, 'selected@p1.test', PASSWORD),
    partnerNone: await mfaToken(server, 'none@p1.test', PASSWORD),
    orgAdmin: await mfaToken(server, 'admin@a1.test', PASSWORD),
    orgTech: await mfaToken(server, 'tech@a1.test', PASSWORD),
    orgAdminB: await mfaToken(server, 'admin@b1.test', PASSWORD),
    noMfa: await plainToken(server, 'nomfa@a1.test'),
  };
  const adminId = (
    server.context.db.prepare('SELECT id FROM users WHERE email = ?').get(ADMIN.email) as { id: string }
  ).id;
  return {
    ids: { p1: p1.partnerId, p2: p2.partnerId, a1, a2, b1, siteA1, siteB1, adminId, orgAdminId },
    tok,
  };
}
