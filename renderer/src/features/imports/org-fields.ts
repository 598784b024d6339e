import type { ImportAddress, ImportSiteContact, OrgImportRow } from '../../../../server/contract';
import { optional, type BuiltRow, type FieldSpec } from './model';

// The fields of an organization import row (spec 3, Import row for organizations and sites) and how one mapped
// CSV row becomes the API row. One row is one site of one organization; rows sharing a name are one group.

const ADDRESS = ['street', 'city', 'region', 'postalCode', 'country'] as const;
const CONTACT = ['name', 'email', 'phone'] as const;

/** The cells of `keys` under a prefix, without blanks; undefined when none is filled. */
function object<K extends string>(
  value: (key: string) => string,
  prefix: string,
  keys: readonly K[],
): Partial<Record<K, string>> | undefined {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = value(`${prefix}.${k}`);
    if (v) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const ORG_FIELDS: readonly FieldSpec[] = [
  {
    key: 'organization',
    label: 'Organization',
    required: true,
    aliases: ['org', 'organisation', 'company', 'companyname', 'customer', 'customername', 'client'],
  },
  { key: 'site', label: 'Site', aliases: ['sitename', 'location', 'branch', 'office'] },
  {
    key: 'externalId',
    label: 'External id',
    aliases: ['id', 'companyid', 'customerid', 'sourceid', 'psaid'],
    hint: 'The organization’s id in the tool you come from: the next import recognises it by this.',
  },
  { key: 'externalSystem', label: 'External system', aliases: ['system', 'source', 'sourcesystem'] },
  { key: 'timezone', label: 'Time zone', aliases: ['tz', 'zone'], hint: 'IANA, e.g. Europe/Berlin' },
  {
    key: 'address.street',
    label: 'Street',
    aliases: ['street', 'address', 'address1', 'addressline1', 'line1'],
  },
  { key: 'address.city', label: 'City', aliases: ['city', 'town'] },
  { key: 'address.region', label: 'Region', aliases: ['region', 'state', 'province', 'county'] },
  {
    key: 'address.postalCode',
    label: 'Postal code',
    aliases: ['postalcode', 'zip', 'zipcode', 'postcode'],
  },
  { key: 'address.country', label: 'Country', aliases: ['country'] },
  { key: 'contact.name', label: 'Site contact name', aliases: ['contactname', 'contact'] },
  { key: 'contact.email', label: 'Site contact email', aliases: ['contactemail', 'email'] },
  { key: 'contact.phone', label: 'Site contact phone', aliases: ['contactphone', 'phone'] },
];

/** The API row from one mapped row (`value(key)`: the trimmed cell, '' when unmapped), or why it cannot go. */
export function buildOrgRow(value: (key: string) => string): BuiltRow<OrgImportRow> {
  const organization = value('organization');
  if (!organization) return { ok: false, problem: 'No organization name' };
  if (organization.length > 255) return { ok: false, problem: 'Organization name over 255 characters' };
  const address: ImportAddress | undefined = object(value, 'address', ADDRESS);
  const contact: ImportSiteContact | undefined = object(value, 'contact', CONTACT);
  const row: OrgImportRow = {
    organization,
    ...optional('site', value('site')),
    ...optional('externalId', value('externalId')),
    ...optional('externalSystem', value('externalSystem')),
    ...optional('timezone', value('timezone')),
    ...(address ? { address } : {}),
    ...(contact ? { contact } : {}),
  };
  return { ok: true, row, group: organization.trim().toLowerCase() };
}
