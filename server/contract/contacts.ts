// Contacts of an organization (spec 3, Contact import row): the people an MSP calls about a customer, optionally
// tied to one of its sites. Read by the console on the organization page; written by PATCH and by contact import.

export const CONTACT_ROLES = [
  'billing',
  'technical',
  'escalation',
  'admin',
  'site',
  'after_hours',
  'portal',
] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];

/** A contact's identity in the tool it came from (`externalSystem` defaults to `csv` on import). */
export interface ExternalLink {
  externalSystem: string;
  externalId: string;
}

export interface Contact {
  id: string;
  orgId: string;
  /** Null for an organization-level contact. */
  siteId: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  title: string | null;
  roles: ContactRole[];
  externalLinks: ExternalLink[];
  createdAt: string;
  updatedAt: string;
}
