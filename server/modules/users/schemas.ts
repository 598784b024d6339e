import { z } from 'zod';
import { paginationQuery } from '../../http/pagination';

// Request bodies and queries of /users and the public invitation endpoints.

const uuid = (field: string) => z.uuid(`${field} must be a UUID`);
const ids = (field: string) => z.array(uuid(field)).max(1000, `${field} lists at most 1000 entries`);

export const userIdParams = z.object({ id: uuid('id') });

const name = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

export const updateMeBody = z.object({
  name: name.optional(),
  avatarUrl: z
    .url({ protocol: /^https?$/, error: 'avatarUrl must be an http(s) URL' })
    .max(2048, 'avatarUrl must be at most 2048 characters')
    .nullable()
    .optional(),
});

export const listUsersQuery = z.object({
  ...paginationQuery(),
  q: z.string().trim().max(255).optional(),
  status: z.enum(['active', 'invited', 'disabled']).optional(),
  partnerId: uuid('partnerId').optional(),
  orgId: uuid('orgId').optional(),
});

export const tenantQuery = z.object({
  partnerId: uuid('partnerId').optional(),
  orgId: uuid('orgId').optional(),
});

/**
 * One body for both kinds of invitation. A partner user carries orgAccess and orgIds; an organization user
 * siteIds and deviceGroupIds. partnerId / orgId name the tenant (system callers must; partner callers may name one
 * of their organizations); without them the invitation goes to the caller's own tenant.
 */
export const inviteBody = z.object({
  email: z.email('Invalid email address').max(255, 'Email must be at most 255 characters'),
  name,
  roleId: uuid('roleId'),
  partnerId: uuid('partnerId').optional(),
  orgId: uuid('orgId').optional(),
  orgAccess: z.enum(['all', 'selected', 'none']).optional(),
  orgIds: ids('orgIds').optional(),
  siteIds: ids('siteIds').optional(),
  deviceGroupIds: ids('deviceGroupIds').optional(),
});
export type InviteBody = z.infer<typeof inviteBody>;

export const resendInviteBody = z.object({ userId: uuid('userId') });

export const updateUserBody = z.object({
  name: name.optional(),
  status: z.enum(['active', 'disabled'], { error: 'status must be active or disabled' }).optional(),
});

export const assignRoleBody = z.object({ roleId: uuid('roleId') });

const token = z.string().trim().min(1, 'token is required').max(200, 'token is too long');

export const invitationQuery = z.object({ token });

export const acceptInviteBody = z.object({
  token,
  password: z.string().min(1, 'Password is required').max(1024, 'Password is too long'),
  name: name.optional(),
});
