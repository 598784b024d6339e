import { z } from 'zod';

// Request bodies and queries of /roles. Vocabulary checks (which resource:action pairs exist) live in the service,
// so the message can name the offending permission.

const uuid = (field: string) => z.uuid(`${field} must be a UUID`);

export const roleIdParams = z.object({ id: uuid('id') });

const name = z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters');
const description = z.string().trim().max(1000, 'Description must be at most 1000 characters').nullable();
const permission = z.object({
  resource: z.string().min(1).max(100),
  action: z.string().min(1).max(50),
});
const permissions = z.array(permission).max(500, 'At most 500 permissions');

/** System callers may name the tenant a role belongs to; partner callers one of their organizations. */
const tenantTarget = {
  partnerId: uuid('partnerId').optional(),
  orgId: uuid('orgId').optional(),
};

export const roleListQuery = z.object(tenantTarget);

export const createRoleBody = z.object({
  name,
  description: description.optional(),
  permissions,
  parentRoleId: uuid('parentRoleId').nullable().optional(),
  ...tenantTarget,
});

export const updateRoleBody = z.object({
  name: name.optional(),
  description: description.optional(),
  permissions: permissions.optional(),
  parentRoleId: uuid('parentRoleId').nullable().optional(),
});

export const cloneRoleBody = z.object({ name, ...tenantTarget });
