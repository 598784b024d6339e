import type {
  ContactImportAnnotation,
  ContactImportCommitRow,
  ContactImportRow,
  ContactRole,
} from '../../../../server/contract';
import { CONTACT_ROLE_LABELS } from '../tenants';
import { importsApi } from './api';
import type { AnnotationInfo, ImportModel, RowOutcome } from './model';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Roles as a spreadsheet holds them: one cell, separated by commas, semicolons or bars; "After hours" reads. */
export function parseRoles(cell: string): string[] {
  return [
    ...new Set(
      cell
        .split(/[,;|]/)
        .map((r) =>
          r
            .trim()
            .toLowerCase()
            .replace(/[\s-]+/g, '_'),
        )
        .filter(Boolean),
    ),
  ];
}

const optional = <K extends string>(key: K, v: string): Partial<Record<K, string>> =>
  v ? ({ [key]: v } as Partial<Record<K, string>>) : {};

export const contactImportModel: ImportModel<ContactImportRow> = {
  id: 'contacts',
  title: 'Contacts',
  about:
    'One row per person: the organization (its name or id), optionally a site of it, and at least one of name, email, phone or mobile.',
  columns: { subject: 'Contact', detail: 'Organization' },
  decidesPerGroup: false,
  fields: [
    {
      key: 'organization',
      label: 'Organization',
      aliases: [
        'org',
        'organisation',
        'company',
        'companyname',
        'customer',
        'customername',
        'client',
        'account',
      ],
      hint: 'A name of one of your organizations, or its id.',
    },
    { key: 'site', label: 'Site', aliases: ['sitename', 'location', 'branch', 'office'] },
    { key: 'name', label: 'Name', aliases: ['contactname', 'fullname', 'person', 'contact'] },
    { key: 'email', label: 'Email', aliases: ['emailaddress', 'mail', 'contactemail'] },
    {
      key: 'phone',
      label: 'Phone',
      aliases: ['telephone', 'tel', 'phonenumber', 'officephone', 'workphone'],
    },
    { key: 'mobile', label: 'Mobile', aliases: ['cell', 'cellphone', 'mobilephone'] },
    { key: 'title', label: 'Title', aliases: ['jobtitle', 'position', 'role title'] },
    {
      key: 'roles',
      label: 'Roles',
      aliases: ['role', 'contactroles', 'type'],
      hint: `Separated by commas or semicolons: ${Object.keys(CONTACT_ROLE_LABELS).join(', ')}`,
    },
    { key: 'externalId', label: 'External id', aliases: ['id', 'contactid', 'sourceid', 'psaid'] },
    { key: 'externalSystem', label: 'External system', aliases: ['system', 'source', 'sourcesystem'] },
  ],
  build: (value) => {
    const org = value('organization');
    if (!org) return { ok: false, problem: 'No organization' };
    if (!['name', 'email', 'phone', 'mobile'].some((k) => value(k)))
      return { ok: false, problem: 'None of name, email, phone or mobile (no-identifier)' };
    const roles = parseRoles(value('roles'));
    const row: ContactImportRow = {
      ...(UUID.test(org) ? { organizationId: org } : { organization: org }),
      ...optional('site', value('site')),
      ...optional('name', value('name')),
      ...optional('email', value('email')),
      ...optional('phone', value('phone')),
      ...optional('mobile', value('mobile')),
      ...optional('title', value('title')),
      // Unknown roles go to the server as they are: it marks that row (invalid-role) and imports the others.
      ...(roles.length > 0 ? { roles: roles as ContactRole[] } : {}),
      ...optional('externalId', value('externalId')),
      ...optional('externalSystem', value('externalSystem')),
    };
    return { ok: true, row, group: org.toLowerCase() };
  },
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
    return [
      ...result.imported.map((r): RowOutcome => ({
        index: r.row,
        outcome: 'imported',
        code: null,
        message: 'Contact created',
      })),
      ...result.updated.map((r): RowOutcome => ({
        index: r.row,
        outcome: 'updated',
        code: null,
        message: 'Contact updated',
      })),
      ...result.skipped.map((r): RowOutcome => ({
        index: r.row,
        outcome: 'skipped',
        code: null,
        message: r.reason,
      })),
      ...result.errors.map((r): RowOutcome => ({
        index: r.row,
        outcome: 'failed',
        code: r.code,
        message: r.message,
      })),
    ];
  },
  modeHelp: {
    skip: 'Contacts that already exist are left as they are; only new contacts are added.',
    update:
      'Existing contacts take the values the file gives; blank cells never clear anything, and roles are replaced only by a non-empty list.',
  },
  doneLink: { to: '/tenants', label: 'Open Tenants' },
};
