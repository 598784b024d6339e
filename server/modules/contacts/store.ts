import type { Db } from '../../db/connection';
import { statement } from '../../db/connection';
import { pagedQuery } from '../../db/paged';
import type { PageRequest } from '../../http/pagination';
import type { ContactColumns, ContactLinkRow, ContactRow } from './rows';

// SQL of contacts and their external links, as free functions of the database. Column names of the dynamic
// UPDATE come from the typed ContactColumns keys, never from request input.

const COLUMNS = ['site_id', 'name', 'email', 'phone', 'mobile', 'title', 'roles', 'updated_at'] as const;

export function contactById(db: Db, id: string): ContactRow | undefined {
  return statement(db, 'SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow | undefined;
}

export function pageContactsOfOrg(
  db: Db,
  orgId: string,
  siteId: string | undefined,
  onlySites: ReadonlySet<string> | null,
  page: PageRequest,
): { rows: ContactRow[]; total: number } {
  const only = onlySites ? JSON.stringify([...onlySites]) : null;
  return pagedQuery<ContactRow>(db, {
    select: '*',
    from: 'contacts',
    where: [
      'org_id = ?',
      '(? IS NULL OR site_id = ?)',
      // A user limited to some sites sees organization-level contacts and those of their sites.
      '(? IS NULL OR site_id IS NULL OR site_id IN (SELECT value FROM json_each(?)))',
    ],
    params: [orgId, siteId ?? null, siteId ?? null, only, only],
    orderBy: 'name COLLATE NOCASE, email COLLATE NOCASE, id',
    page,
  });
}

/** Every contact of the organizations named, for matching a whole import at once. */
export function contactsOfOrgs(db: Db, orgIds: readonly string[]): ContactRow[] {
  return statement(db, 'SELECT * FROM contacts WHERE org_id IN (SELECT value FROM json_each(?))').all(
    JSON.stringify(orgIds),
  ) as ContactRow[];
}

export function linksOfContacts(db: Db, contactIds: readonly string[]): ContactLinkRow[] {
  return statement(
    db,
    `SELECT contact_id, external_system, external_id FROM contact_external_links
     WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY external_system, external_id`,
  ).all(JSON.stringify(contactIds)) as ContactLinkRow[];
}

/** The contact an organization's external link names, if any. */
export function contactIdByLink(
  db: Db,
  orgId: string,
  system: string,
  externalId: string,
): string | undefined {
  return (
    statement(
      db,
      'SELECT contact_id FROM contact_external_links WHERE org_id = ? AND external_system = ? AND external_id = ?',
    ).get(orgId, system, externalId) as { contact_id: string } | undefined
  )?.contact_id;
}

export function insertContact(db: Db, row: ContactRow): void {
  statement(
    db,
    `INSERT INTO contacts (id, org_id, site_id, name, email, phone, mobile, title, roles, created_at, updated_at)
     VALUES (@id, @org_id, @site_id, @name, @email, @phone, @mobile, @title, @roles, @created_at, @updated_at)`,
  ).run(row);
}

export function updateContactRow(db: Db, id: string, columns: ContactColumns): void {
  const keys = COLUMNS.filter((k) => columns[k] !== undefined);
  if (keys.length === 0) return;
  const values: Record<string, unknown> = { id };
  for (const key of keys) values[key] = columns[key];
  statement(db, `UPDATE contacts SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run(
    values,
  );
}

export function insertContactLink(
  db: Db,
  link: { orgId: string; contactId: string; system: string; externalId: string; at: string },
): void {
  statement(
    db,
    `INSERT INTO contact_external_links (org_id, contact_id, external_system, external_id, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  ).run(link.orgId, link.contactId, link.system, link.externalId, link.at);
}

export interface ContactLinkOfOrg {
  org_id: string;
  contact_id: string;
  external_system: string;
  external_id: string;
}

/** Every contact external link of the organizations named, for matching a whole contact import at once. */
export function contactLinksOfOrgs(db: Db, orgIds: readonly string[]): ContactLinkOfOrg[] {
  return statement(
    db,
    `SELECT org_id, contact_id, external_system, external_id FROM contact_external_links
     WHERE org_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(orgIds)) as ContactLinkOfOrg[];
}
