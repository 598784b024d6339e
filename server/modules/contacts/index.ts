// The contacts module's public surface: what other modules (contact import) may import. Its routes are mounted by
// server/index.ts from routes.ts.
export { contactsWithLinks, NO_IDENTIFIER, SITE_NOT_IN_ORG } from './service';
export { contactRole } from './schemas';
export {
  contactById,
  contactIdByLink,
  contactLinksOfOrgs,
  contactsOfOrgs,
  insertContact,
  insertContactLink,
  updateContactRow,
} from './store';
export type { ContactColumns, ContactRow } from './rows';
