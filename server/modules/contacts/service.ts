import type { Request } from 'express';
import type { Contact } from '../../contract/contacts';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../http/auth-context';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { paginated, type PageRequest } from '../../http/pagination';
import {
  requireOrgAccess,
  resolveOrgScope,
  scopeCovers,
  siteRestriction,
  SITE_DENIED,
} from '../../http/scope';
import { auditCaller } from '../audit';
import { siteById } from '../tenancy';
import { toContact, type ContactColumns, type ContactRow } from './rows';
import type { UpdateContactBody } from './schemas';
import { contactById, linksOfContacts, pageContactsOfOrg, updateContactRow } from './store';

// The contact resource (spec 3): read within the organizations the caller's scope covers, and PATCH, where an
// explicit null clears a field. A contact outside the caller's scope is answered exactly like one that does not
// exist, so nobody can probe another tenant's contact ids.

const NOT_FOUND = 'Contact not found';
export const NO_IDENTIFIER = 'A contact needs at least one of name, email, phone or mobile';
export const SITE_NOT_IN_ORG = 'Site does not belong to this organization';

/** API shapes of stored rows, with their external links read in one query. */
export function contactsWithLinks(ctx: Pick<AppContext, 'db'>, rows: ContactRow[]): Contact[] {
  const links = linksOfContacts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toContact(
      row,
      links.filter((l) => l.contact_id === row.id),
    ),
  );
}

export function listContacts(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string,
  siteId: string | undefined,
  page: PageRequest,
) {
  requireOrgAccess(ctx.db, auth, orgId);
  const { rows, total } = pageContactsOfOrg(ctx.db, orgId, siteId, siteRestriction(ctx.db, auth), page);
  return paginated(contactsWithLinks(ctx, rows), page, total);
}

function contactInScope(ctx: AppContext, auth: AuthContext, id: string): ContactRow {
  const row = contactById(ctx.db, id);
  if (!row || !scopeCovers(resolveOrgScope(ctx.db, auth), row.org_id)) throw notFound(NOT_FOUND);
  // A user limited to some sites reaches organization-level contacts and those of their sites only.
  const only = siteRestriction(ctx.db, auth);
  if (only && row.site_id !== null && !only.has(row.site_id)) throw notFound(NOT_FOUND);
  return row;
}

export function getContact(ctx: AppContext, auth: AuthContext, id: string): Contact {
  const [contact] = contactsWithLinks(ctx, [contactInScope(ctx, auth, id)]);
  return contact!;
}

export function updateContact(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: UpdateContactBody,
): Contact {
  const row = contactInScope(ctx, auth, id);
  const changedFields = Object.keys(body).filter((k) => body[k as keyof UpdateContactBody] !== undefined);
  if (changedFields.length === 0) throw badRequest('No updates provided');
  if (body.siteId) {
    const site = siteById(ctx.db, body.siteId);
    if (!site || site.org_id !== row.org_id) throw badRequest(SITE_NOT_IN_ORG, 'SITE_NOT_IN_ORG');
  }
  // Nor may such a user move a contact out to the organization or to a site they cannot reach.
  const only = siteRestriction(ctx.db, auth);
  if (only && body.siteId !== undefined && (body.siteId === null || !only.has(body.siteId)))
    throw forbidden(SITE_DENIED);
  const columns: ContactColumns = {
    name: body.name,
    email: body.email,
    phone: body.phone,
    mobile: body.mobile,
    title: body.title,
    site_id: body.siteId,
    roles: body.roles === undefined ? undefined : JSON.stringify(body.roles ?? []),
    updated_at: new Date().toISOString(),
  };
  const pick = (key: 'name' | 'email' | 'phone' | 'mobile') =>
    columns[key] !== undefined ? columns[key] : row[key];
  if ([pick('name'), pick('email'), pick('phone'), pick('mobile')].every((v) => v === null))
    throw badRequest(NO_IDENTIFIER, 'NO_IDENTIFIER');
  updateContactRow(ctx.db, id, columns);
  const contact = getContact(ctx, auth, id);
  auditCaller(ctx, req, auth, {
    orgId: row.org_id,
    action: 'contact.update',
    resourceType: 'contact',
    resourceId: id,
    resourceName: contact.name ?? contact.email ?? contact.phone ?? contact.mobile,
    details: { changedFields },
  });
  return contact;
}
