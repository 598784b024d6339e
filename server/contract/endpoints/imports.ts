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
} from '../imports';
import type { Endpoint } from './endpoint';

// Estate import (spec 3, Import): each call carries at most 1000 rows.

export interface ImportEndpoints {
  'POST /orgs/import/preview': Endpoint<OrgImportPreviewResponse, { rows: OrgImportRow[] }>;
  'POST /orgs/import': Endpoint<OrgImportResult, { rows: OrgImportCommitRow[]; mode: ImportMode }>;
  'POST /orgs/contacts/import/preview': Endpoint<ContactImportPreviewResponse, { rows: ContactImportRow[] }>;
  'POST /orgs/contacts/import': Endpoint<
    ContactImportResult,
    { rows: ContactImportCommitRow[]; mode: ImportMode }
  >;
}
