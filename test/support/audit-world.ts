import type { AuditInput } from '../../server/modules/audit';
import { ADMIN, auditSettled, startServer, type TestServer } from './server';
import { insertAcmeTree, insertOrgUser, insertPartnerUser, ROLES, signedToken } from './seed';

// The world of the audit API suites: Acme MSP (Contoso, Fabrikam) and Other MSP (Initech), with a caller at each
// level, and entries written through the real writer (so every seeded row is chained as production rows are).

export interface AuditWorld {
  server: TestServer;
  partnerId: string;
  otherPartnerId: string;
  orgA: string;
  orgB: string;
  orgX: string;
  ids: { partnerAdmin: string; orgAdmin: string; orgReader: string; otherAdmin: string };
  tokens: { system: string; partnerAdmin: string; orgAdmin: string; orgReader: string; otherAdmin: string };
}

export async function auditWorld(): Promise<AuditWorld> {
  const server = await startServer();
  const tree = insertAcmeTree(server);
  const ids = {
    partnerAdmin: await insertPartnerUser(server, tree.partnerId, tree.adminRoleId, 'boss@acme.test', {
      orgAccess: 'all',
    }),
    orgAdmin: await insertOrgUser(server, tree.orgA, ROLES.orgAdmin, 'admin@contoso.test'),
    orgReader: await insertOrgUser(server, tree.orgA, ROLES.orgReadOnly, 'reader@contoso.test'),
    otherAdmin: await insertPartnerUser(
      server,
      tree.otherPartnerId,
      tree.otherAdminRoleId,
      'boss@other.test',
      {
        orgAccess: 'all',
      },
    ),
  };
  const tokens = {
    system: await signedToken(server, ADMIN.email),
    partnerAdmin: await signedToken(server, 'boss@acme.test'),
    orgAdmin: await signedToken(server, 'admin@contoso.test'),
    orgReader: await signedToken(server, 'reader@contoso.test'),
    otherAdmin: await signedToken(server, 'boss@other.test'),
  };
  await auditSettled(server);
  return { server, ...tree, ids, tokens };
}

/** Writes entries through the audit writer and waits until they are in SQLite. */
export async function writeEntries(server: TestServer, entries: AuditInput[]): Promise<void> {
  for (const entry of entries) server.context.audit.record(entry);
  await auditSettled(server);
}

/** One user entry of `orgId` with sensible defaults. */
export const entry = (orgId: string, actorId: string, fields: Partial<AuditInput> = {}): AuditInput => ({
  orgId,
  actorType: 'user',
  actorId,
  actorEmail: 'someone@acme.test',
  action: 'device.update',
  resourceType: 'device',
  resourceName: 'PC-001',
  ipAddress: '198.51.100.7',
  userAgent: 'vitest',
  ...fields,
});

/** Ids of the entries a list answer holds. */
export const idsOf = (body: { data?: Array<{ id: string }>; entries?: Array<{ id: string }> }): string[] =>
  (body.data ?? body.entries ?? []).map((e) => e.id);

/** The id of the newest entry of `action` in SQLite. */
export function entryId(server: TestServer, action: string): string {
  const row = server.context.db
    .prepare('SELECT id FROM audit_logs WHERE action = ? ORDER BY seq DESC LIMIT 1')
    .get(action) as { id: string } | undefined;
  if (!row) throw new Error(`no ${action} entry`);
  return row.id;
}
