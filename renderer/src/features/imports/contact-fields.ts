import type { ContactImportRow, ContactRole } from '../../../../server/contract';
import { optional, type BuiltRow, type FieldSpec } from './model';

// The fields of a contact import row (spec 3, Contact import row) and how one mapped CSV row becomes the API row.

/** The spec's role values as a row spells them (a Record over the contract's union: a new role fails here). */
const ROLE_VALUES: Record<ContactRole, true> = {
  billing: true,
  technical: true,
  escalation: true,
  admin: true,
  site: true,
  after_hours: true,
  portal: true,
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

export const CONTACT_FIELDS: readonly FieldSpec[] = [
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
    hint: `Separated by commas or semicolons: ${Object.keys(ROLE_VALUES).join(', ')}`,
  },
  { key: 'externalId', label: 'External id', aliases: ['id', 'contactid', 'sourceid', 'psaid'] },
  { key: 'externalSystem', label: 'External system', aliases: ['system', 'source', 'sourcesystem'] },
];

/** The API row from one mapped row (`value(key)`: the trimmed cell, '' when unmapped), or why it cannot go. */
export function buildContactRow(value: (key: string) => string): BuiltRow<ContactImportRow> {
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
}
