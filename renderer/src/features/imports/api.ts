import type {
  ContactImportCommitRow,
  ContactImportPreviewResponse,
  ContactImportResult,
  ContactImportRow,
  ImportMode,
  OrgImportCommitRow,
  OrgImportPreviewResponse,
  OrgImportResult,
  OrgImportRow,
} from '../../../../server/contract';
import { api } from '../../lib/api/client';
import { queryClient } from '../../lib/query';

// The estate import endpoints (spec 3, Import), typed by the contract. Each call carries at most 1000 rows (the
// wizard chunks larger files). A commit changes organizations, sites and contacts the rest of the console has
// cached, so every commit marks the whole cache stale.

async function committed<T>(work: Promise<T>): Promise<T> {
  const result = await work;
  void queryClient.invalidateQueries();
  return result;
}

export const importsApi = {
  previewOrganizations: (rows: OrgImportRow[]) =>
    api<OrgImportPreviewResponse>('/orgs/import/preview', { method: 'POST', body: { rows } }),
  commitOrganizations: (rows: OrgImportCommitRow[], mode: ImportMode) =>
    committed(api<OrgImportResult>('/orgs/import', { method: 'POST', body: { rows, mode } })),
  previewContacts: (rows: ContactImportRow[]) =>
    api<ContactImportPreviewResponse>('/orgs/contacts/import/preview', { method: 'POST', body: { rows } }),
  commitContacts: (rows: ContactImportCommitRow[], mode: ImportMode) =>
    committed(api<ContactImportResult>('/orgs/contacts/import', { method: 'POST', body: { rows, mode } })),
};
