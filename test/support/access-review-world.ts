import type {
  AccessReviewCreated,
  AccessReviewDetail,
  AccessReviewItem,
} from '../../server/contract/access-reviews';
import { insertAcmeTree, insertOrgUser, insertPartnerUser, ROLES, signedToken } from './seed';
import { startServer, type ApiResponse, type TestServer } from './server';

// The tenant tree of the access-review suites (test/integration/access-reviews-*.test.ts): Acme MSP with its
// partner users and Contoso's organization users, and Other MSP next door. Tokens are signed straight from the
// seeded users (MFA-verified sessions), so each suite needs no sign-in round trips.

export interface ReviewWorld {
  server: TestServer;
  tree: ReturnType<typeof insertAcmeTree>;
  ids: Record<keyof typeof EMAILS, string>;
  tokens: Record<keyof typeof EMAILS, string>;
  systemToken: string;
}

export const EMAILS = {
  /** Partner Admin (`*:*`), sees every organization. */
  acmeAdmin: 'admin@acme.test',
  /** A second Partner Admin: a reviewer the first can assign. */
  acmeAdmin2: 'admin2@acme.test',
  /** Partner Technician: no users:read. */
  acmeTech: 'tech@acme.test',
  acmeTech2: 'tech2@acme.test',
  /** Partner Admin role, but only Contoso: not full partner access. */
  acmeLimited: 'limited@acme.test',
  /** Contoso's Organization Administrator (`*:*` in the organization). */
  orgAdmin: 'orgadmin@contoso.test',
  /** Contoso's Organization Read Only (users:read, not users:write). */
  orgReader: 'reader@contoso.test',
  orgTech: 'orgtech@contoso.test',
  /** Other MSP's Partner Admin. */
  otherAdmin: 'admin@other.test',
} as const;

export async function reviewWorld(env: Record<string, string> = {}, dataDir?: string): Promise<ReviewWorld> {
  const server = await startServer({ env, ...(dataDir ? { dataDir } : {}) });
  return populate(server);
}

export async function populate(server: TestServer): Promise<ReviewWorld> {
  const tree = insertAcmeTree(server);
  const all = { orgAccess: 'all' as const };
  // Password hashing dominates the set-up: the users are hashed side by side.
  const [acmeAdmin, acmeAdmin2, acmeTech, acmeTech2, acmeLimited, orgAdmin, orgReader, orgTech, otherAdmin] =
    await Promise.all([
      insertPartnerUser(server, tree.partnerId, tree.adminRoleId, EMAILS.acmeAdmin, all),
      insertPartnerUser(server, tree.partnerId, tree.adminRoleId, EMAILS.acmeAdmin2, all),
      insertPartnerUser(server, tree.partnerId, ROLES.partnerTechnician, EMAILS.acmeTech, all),
      insertPartnerUser(server, tree.partnerId, ROLES.partnerTechnician, EMAILS.acmeTech2, all),
      insertPartnerUser(server, tree.partnerId, tree.adminRoleId, EMAILS.acmeLimited, {
        orgAccess: 'selected',
        orgIds: [tree.orgA],
      }),
      insertOrgUser(server, tree.orgA, ROLES.orgAdmin, EMAILS.orgAdmin),
      insertOrgUser(server, tree.orgA, ROLES.orgReadOnly, EMAILS.orgReader),
      insertOrgUser(server, tree.orgA, ROLES.orgTechnician, EMAILS.orgTech),
      insertPartnerUser(server, tree.otherPartnerId, tree.otherAdminRoleId, EMAILS.otherAdmin, all),
    ]);
  const ids = {
    acmeAdmin,
    acmeAdmin2,
    acmeTech,
    acmeTech2,
    acmeLimited,
    orgAdmin,
    orgReader,
    orgTech,
    otherAdmin,
  };
  const tokens = {} as Record<keyof typeof EMAILS, string>;
  for (const key of Object.keys(EMAILS) as Array<keyof typeof EMAILS>)
    tokens[key] = await signedToken(server, EMAILS[key]);
  const systemToken = await signedToken(server, 'admin@gatehouse.test');
  return { server, tree, ids, tokens, systemToken };
}

export const patchItem = (
  server: TestServer,
  reviewId: string,
  itemId: string,
  body: unknown,
  token: string,
): Promise<ApiResponse> =>
  server.api.request('PATCH', `/access-reviews/${reviewId}/items/${itemId}`, { body, token });

export async function createReview(
  server: TestServer,
  token: string,
  body: Record<string, unknown> = { name: 'Q4 review' },
): Promise<AccessReviewCreated> {
  const res = await server.api.post('/access-reviews', body, token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as AccessReviewCreated;
}

export async function readReview(server: TestServer, id: string, token: string): Promise<AccessReviewDetail> {
  const res = await server.api.get(`/access-reviews/${id}`, token);
  if (res.status !== 200) throw new Error(`read failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as AccessReviewDetail;
}

export function itemFor(review: AccessReviewDetail, userId: string): AccessReviewItem {
  const item = review.items.find((i) => i.userId === userId);
  if (!item) throw new Error(`no item for ${userId}`);
  return item;
}

/** Decides every item of the review: `revoke` names the users to revoke, everyone else is approved. */
export async function decideAll(
  server: TestServer,
  review: AccessReviewDetail,
  token: string,
  revoke: readonly string[],
): Promise<void> {
  for (const item of review.items) {
    const decision = revoke.includes(item.userId) ? 'revoked' : 'approved';
    const res = await patchItem(server, review.id, item.id, { decision }, token);
    if (res.status !== 200) throw new Error(`decide failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
