import { z } from 'zod';
import { CONTACT_ROLES } from '../../contract/contacts';
import { paginationQuery } from '../../http/pagination';
import { uuidField } from '../api-keys';

// Request shapes of the contact resource. PATCH distinguishes an absent field (left as it is) from an explicit
// null (cleared): that is the only way stored contact data is ever cleared (imports never clear anything).

const text = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const contactRole = z.enum(CONTACT_ROLES, {
  error: `each role must be one of ${CONTACT_ROLES.join(', ')}`,
});

export const updateContactBody = z.strictObject({
  name: text('name', 255),
  email: z
    .email('email must be an email address')
    .max(320, 'email must be at most 320 characters')
    .nullable()
    .optional(),
  phone: text('phone', 50),
  mobile: text('mobile', 50),
  title: text('title', 255),
  siteId: uuidField('siteId').nullable().optional(),
  /** Replaces the list; null clears it. */
  roles: z
    .array(contactRole)
    .max(CONTACT_ROLES.length)
    .transform((r) => [...new Set(r)])
    .nullable()
    .optional(),
});
export type UpdateContactBody = z.infer<typeof updateContactBody>;

export const contactParams = z.object({ contactId: uuidField('contactId') });
export const orgContactsParams = z.object({ id: uuidField('id') });
export const listContactsQuery = z.object({
  ...paginationQuery({ maxLimit: 500 }),
  siteId: uuidField('siteId').optional(),
});
