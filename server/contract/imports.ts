import type { ContactRole } from './contacts';

// Estate import (spec 3, Import rows, States and transitions, Import): organizations and sites, then contacts.
// Preview writes nothing and annotates each row; commit re-derives every annotation from fresh state inside one
// transaction and refuses, row by row, any row whose annotation changed. Commits always answer 200.

export const IMPORT_MAX_ROWS = 1000;
export type ImportMode = 'skip' | 'update';

// ---- organizations and sites ---------------------------------------------------------------------------------

export type OrgImportAnnotation =
  'create' | 'link-match' | 'name-match' | 'matched-soft-deleted' | 'conflict';

export interface ImportAddress {
  [field: string]: unknown;
}

export interface ImportSiteContact {
  name?: string;
  email?: string;
  phone?: string;
}

/** One row as the console sends it: one site of one organization (rows sharing `organization` are one). */
export interface OrgImportRow {
  organization: string;
  site?: string;
  externalId?: string;
  externalSystem?: string;
  timezone?: string;
  address?: ImportAddress;
  contact?: ImportSiteContact;
}

/** Commit-only fields: what the preview said, echoed back as the caller's confirmation. */
export interface OrgImportCommitRow extends OrgImportRow {
  expectedAnnotation?: OrgImportAnnotation;
  expectedOrganizationId?: string;
  /** Required to attach to a soft-deleted match (which is restored). */
  reactivate?: boolean;
  /** Create a new organization instead of attaching to a name-matched or soft-deleted one. */
  forceCreate?: boolean;
}

export interface OrgImportPreviewRow {
  /** Index of the row in the request. */
  row: number;
  annotation: OrgImportAnnotation;
  organization: string;
  site: string | null;
  /** The organization the row would attach to (link-match, name-match, matched-soft-deleted). */
  matchedOrganizationId: string | null;
  matchedOrganizationName: string | null;
  conflictReason: string | null;
}

export interface OrgImportPreviewResponse {
  rows: OrgImportPreviewRow[];
}

export interface OrgImportImported {
  row: number;
  organizationId: string;
  organization: string;
  siteId: string | null;
  site: string | null;
  /** True when this row created the organization (rather than a site of one created by an earlier row). */
  organizationCreated: boolean;
}

export interface OrgImportUpdated {
  row: number;
  organizationId: string;
  organization: string;
  siteId: string | null;
  site: string | null;
  /** The organization was soft-deleted and this row restored it (`reactivate: true`). */
  reactivated: boolean;
}

export interface OrgImportSkipped {
  row: number;
  organization: string;
  reason: string;
}

export type OrgImportErrorCode =
  | 'row-conflict'
  | 'annotation-changed'
  | 'match-changed'
  | 'match-unconfirmed'
  | 'reactivate-required'
  | 'write-failed';

export interface OrgImportError {
  row: number;
  organization: string;
  code: OrgImportErrorCode;
  message: string;
  /** The annotation commit derived from fresh state. */
  annotation: OrgImportAnnotation;
}

export interface OrgImportResult {
  imported: OrgImportImported[];
  updated: OrgImportUpdated[];
  skipped: OrgImportSkipped[];
  errors: OrgImportError[];
}

// ---- contacts ------------------------------------------------------------------------------------------------

export type ContactImportAnnotation =
  'create' | 'link-match' | 'email-match' | 'name-match' | 'conflict' | 'org-not-found';

export interface ContactImportRow {
  organizationId?: string;
  organization?: string;
  site?: string;
  name?: string;
  email?: string;
  phone?: string;
  mobile?: string;
  title?: string;
  roles?: ContactRole[];
  externalId?: string;
  externalSystem?: string;
}

export interface ContactImportCommitRow extends ContactImportRow {
  expectedAnnotation?: ContactImportAnnotation;
  expectedContactId?: string;
}

export interface ContactImportPreviewRow {
  row: number;
  annotation: ContactImportAnnotation;
  /** Non-fatal: a hint matched several contacts and the row resolved to `create` on its own externalId. */
  warning: string | null;
  organizationId: string | null;
  organizationName: string | null;
  matchedContactId: string | null;
  matchedContactEmail: string | null;
  conflictReason: string | null;
}

export interface ContactImportPreviewResponse {
  rows: ContactImportPreviewRow[];
}

export type ContactImportErrorCode =
  | 'row-conflict'
  | 'org-not-found'
  | 'annotation-changed'
  | 'match-changed'
  | 'match-unconfirmed'
  | 'no-identifier'
  | 'invalid-role'
  | 'site-not-in-org'
  | 'write-failed';

export interface ContactImportError {
  row: number;
  code: ContactImportErrorCode;
  message: string;
}

export interface ContactImportDone {
  row: number;
  contactId: string;
  organizationId: string;
}

export interface ContactImportSkipped {
  row: number;
  contactId: string | null;
  reason: string;
}

export interface ContactImportResult {
  imported: ContactImportDone[];
  updated: ContactImportDone[];
  skipped: ContactImportSkipped[];
  errors: ContactImportError[];
}
