// The users module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export {
  countUsers,
  insertPlatformAdmin,
  membershipOf,
  PLATFORM_ADMIN_ROLE_ID,
  setPasswordHash,
  toAuthUser,
  touchLogin,
  userByEmail,
  userById,
  type AssociationKey,
  type Membership,
  type UserRow,
} from './store';
export { toUserSummary, userVisibility } from './directory';
export { revokeUserSessions } from './revoke';
export { endMembership } from './removal';
export { listUsers, roleUserCounts, type Visibility } from './directory-store';
export { requireAdminContext, resolveTenant, type Tenant } from './tenant';
