import type { Contact, ContactPatch, ContactRole } from '../../../../server/contract';

// What the contact dialog sends: PATCH semantics (spec 3), where an absent field stays and an explicit null
// clears it. Only changed fields go; a field emptied in the form goes as null.

export type TextKey = 'name' | 'email' | 'phone' | 'mobile' | 'title';

export const TEXT_FIELDS: Array<{ key: TextKey; label: string; type: string; max: number }> = [
  { key: 'name', label: 'Name', type: 'text', max: 255 },
  { key: 'title', label: 'Title', type: 'text', max: 255 },
  { key: 'email', label: 'Email', type: 'email', max: 320 },
  { key: 'phone', label: 'Phone', type: 'tel', max: 50 },
  { key: 'mobile', label: 'Mobile', type: 'tel', max: 50 },
];

/** The PATCH body: changed fields only; an emptied field is null (no site: organization-level; no roles: null). */
export function contactChanges(
  contact: Contact,
  values: Record<TextKey, string>,
  siteId: string,
  roles: ContactRole[],
): ContactPatch {
  const body: ContactPatch = {};
  for (const { key } of TEXT_FIELDS) {
    const next = values[key].trim() || null;
    if (next !== contact[key]) body[key] = next;
  }
  if ((siteId || null) !== contact.siteId) body.siteId = siteId || null;
  const sorted = (r: readonly string[]) => [...r].sort().join(',');
  if (sorted(roles) !== sorted(contact.roles)) body.roles = roles.length > 0 ? roles : null;
  return body;
}
