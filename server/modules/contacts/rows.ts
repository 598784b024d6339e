import type { Contact, ContactRole, ExternalLink } from '../../contract/contacts';

// The stored contact row and its API shape.

export interface ContactRow {
  id: string;
  org_id: string;
  site_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  title: string | null;
  /** JSON array of role values. */
  roles: string;
  created_at: string;
  updated_at: string;
}

/** Columns a write may set; `undefined` leaves a column as it is, `null` clears it. */
export type ContactColumns = Partial<Omit<ContactRow, 'id' | 'org_id' | 'created_at'>>;

export interface ContactLinkRow {
  contact_id: string;
  external_system: string;
  external_id: string;
}

export function toContact(row: ContactRow, links: ContactLinkRow[]): Contact {
  return {
    id: row.id,
    orgId: row.org_id,
    siteId: row.site_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    title: row.title,
    roles: JSON.parse(row.roles) as ContactRole[],
    externalLinks: links.map((l): ExternalLink => ({
      externalSystem: l.external_system,
      externalId: l.external_id,
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
