import type {
  ContactImportAnnotation,
  ContactImportCommitRow,
  ContactImportRow,
} from '../../../../server/contract';
import { importsApi } from './api';
import { buildContactRow, CONTACT_FIELDS } from './contact-fields';
import { commitOutcomes, type AnnotationInfo, type ImportModel } from './model';

// The contact import (spec 3, Contact import row): one row is one person of an organization (by name or id),
// optionally of one of its sites. A row matched only by email or name is applied to that contact when the
// technician confirms it; otherwise it is left out.

const ANNOTATIONS: Record<ContactImportAnnotation, AnnotationInfo> = {
  create: {
    label: 'New',
    tone: 'new',
    explain: 'No contact of the organization matches: a new contact is created.',
  },
  'link-match': {
    label: 'Linked',
    tone: 'linked',
    explain:
      'Same external id as a contact already here (the link is the acknowledgement): that contact is used.',
  },
  'email-match': {
    label: 'Same email',
    tone: 'ask',
    explain:
      'A contact of the organization has this email: apply the row to that contact, or leave the row out.',
  },
  'name-match': {
    label: 'Same name',
    tone: 'ask',
    explain:
      'A contact of the organization has this name: apply the row to that contact, or leave the row out.',
  },
  conflict: {
    label: 'Conflict',
    tone: 'bad',
    explain:
      'Cannot be imported as it is (unknown role, unknown site, a repeated contact; the reason is on the row).',
  },
  'org-not-found': {
    label: 'No such organization',
    tone: 'bad',
    explain:
      'None of your organizations has this name or id: import the organization first, or fix the name.',
  },
};

export const contactImportModel: ImportModel<ContactImportRow> = {
  id: 'contacts',
  title: 'Contacts',
  about:
    'One row per person: the organization (its name or id), optionally a site of it, and at least one of name, email, phone or mobile.',
  columns: { subject: 'Contact', detail: 'Organization' },
  decidesPerGroup: false,
  fields: CONTACT_FIELDS,
  build: buildContactRow,
  annotations: ANNOTATIONS,
  choiceLabel: (decision, line) =>
    decision === 'attach' ? `Apply to ${line.matchedLabel ?? 'the existing contact'}` : 'Leave out',
  preview: async (rows) => {
    const { rows: lines } = await importsApi.previewContacts(rows);
    return lines.map((l, i) => {
      const row = rows[i];
      return {
        annotation: l.annotation,
        subject: row?.name ?? row?.email ?? row?.phone ?? row?.mobile ?? '—',
        detail: l.organizationName ?? row?.organization ?? row?.organizationId ?? null,
        matchedId: l.matchedContactId,
        matchedLabel: l.matchedContactEmail ?? (l.matchedContactId ? 'the existing contact' : null),
        note: l.conflictReason ?? l.warning,
        asks:
          l.annotation === 'email-match' || l.annotation === 'name-match'
            ? (['attach', 'leave'] as const)
            : null,
      };
    });
  },
  commit: async (items, mode) => {
    const rows = items.map(({ row, line }): ContactImportCommitRow => ({
      ...row,
      expectedAnnotation: line.annotation as ContactImportAnnotation,
      ...(line.matchedId ? { expectedContactId: line.matchedId } : {}),
    }));
    const result = await importsApi.commitContacts(rows, mode);
    return commitOutcomes(result, { imported: () => 'Contact created', updated: () => 'Contact updated' });
  },
  modeHelp: {
    skip: 'Contacts that already exist are left as they are; only new contacts are added.',
    update:
      'Existing contacts take the values the file gives; blank cells never clear anything, and roles are replaced only by a non-empty list.',
  },
};
