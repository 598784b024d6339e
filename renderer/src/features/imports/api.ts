import type {
  ContactImportCommitRow,
  ContactImportRow,
  ImportMode,
  OrgImportCommitRow,
  OrgImportRow,
} from '../../../../server/contract';
import { call } from '../../lib/api/endpoints';
import { staleAfter } from '../../lib/query';

// The estate import endpoints (spec 3, Import), typed by the contract. Each call carries at most 1000 rows (the
// wizard chunks larger files). A commit changes organizations, sites and contacts the rest of the console has
// cached, so every commit marks the whole cache stale.

export const importsApi = {
  previewOrganizations: (rows: OrgImportRow[]) => call('POST /orgs/import/preview', { body: { rows } }),
  commitOrganizations: (rows: OrgImportCommitRow[], mode: ImportMode) =>
    staleAfter(call('POST /orgs/import', { body: { rows, mode } })),
  previewContacts: (rows: ContactImportRow[]) =>
    call('POST /orgs/contacts/import/preview', { body: { rows } }),
  commitContacts: (rows: ContactImportCommitRow[], mode: ImportMode) =>
    staleAfter(call('POST /orgs/contacts/import', { body: { rows, mode } })),
};
