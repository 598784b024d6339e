import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { contactParams, listContactsQuery, orgContactsParams, updateContactBody } from './schemas';
import { getContact, listContacts, updateContact } from './service';

// Contacts (spec 3): listed under their organization for the console's organization page, read and patched by
// id. Scoped like organizations (every scope, API keys included, within what the caller covers).

const TAG = 'contacts';

export function contactRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/orgs/organizations/:id/contacts',
      tag: TAG,
      summary: "An organization's contacts, by name (`siteId` narrows to one site's contacts)",
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: orgContactsParams,
      query: listContactsQuery,
      responses: { 404: 'Organization not found' },
      handler: ({ auth, params, query }) => listContacts(ctx, auth, params.id, query.siteId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/orgs/contacts/:contactId',
      tag: TAG,
      summary: 'One contact with its external links',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: contactParams,
      responses: { 404: 'Contact not found' },
      handler: ({ auth, params }) => getContact(ctx, auth, params.contactId),
    }),
    defineRoute({
      method: 'patch',
      path: '/orgs/contacts/:contactId',
      tag: TAG,
      summary:
        'Update a contact: absent fields stay, an explicit null clears the field (roles: null empties it)',
      auth: 'user_or_key',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      params: contactParams,
      body: updateContactBody,
      responses: {
        400: 'No updates provided; A contact needs at least one of name, email, phone or mobile; Site does not belong to this organization',
        404: 'Contact not found',
      },
      handler: ({ req, auth, params, body }) => updateContact(ctx, req, auth, params.contactId, body),
    }),
  ];
}
