// The console import's logic without its screens (renderer/src/features/imports): reading a spreadsheet's CSV
// (byte-order mark, quoted cells with commas and line breaks, ragged rows), mapping headers to the spec's fields,
// turning a mapped row into the API row, packing rows into requests of at most 1000 without splitting an
// organization, and the failed-rows CSV staying text in a spreadsheet. Also the contact dialog's PATCH body,
// where an emptied field is an explicit null.
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../server/contract';
import {
  buildContactRow,
  CONTACT_FIELDS,
  parseRoles,
} from '../../renderer/src/features/imports/contact-fields';
import { parseCsv, toCsv } from '../../renderer/src/features/imports/csv';
import { autoMap } from '../../renderer/src/features/imports/model';
import { buildOrgRow, ORG_FIELDS } from '../../renderer/src/features/imports/org-fields';
import { chunkByGroup, ROWS_PER_REQUEST, sendableRows } from '../../renderer/src/features/imports/run';
import { contactChanges } from '../../renderer/src/features/tenants/contact-changes';

const valueOf = (cells: Record<string, string>) => (key: string) => cells[key] ?? '';

describe('parseCsv', () => {
  it('drops the byte-order mark, keeps quoted commas and line breaks in one cell, pads short rows', () => {
    const parsed = parseCsv(
      '\uFEFFCompany,Street,City\r\n"Acme, Inc.","1 Main St\nUnit 2",Leeds\r\nBeta\r\n',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.csv.headers).toEqual(['Company', 'Street', 'City']);
    expect(parsed.csv.rows).toEqual([
      ['Acme, Inc.', '1 Main St\nUnit 2', 'Leeds'],
      ['Beta', '', ''],
    ]);
  });

  it('names blank and repeated headers by position, and says when a row is wider than the header', () => {
    const parsed = parseCsv('Name,,Name\na,b,c,d\n');
    expect(parsed.ok && parsed.csv.headers).toEqual(['Name', 'Column 2', 'Name (3)']);
    expect(parsed.ok && parsed.csv.warnings.join(' ')).toContain('1 row has more cells than the header');
  });

  it('refuses an empty file and a header without rows, in words', () => {
    expect(parseCsv('\uFEFF  \n')).toEqual({ ok: false, message: 'The file is empty.' });
    expect(parseCsv('organization,site\n')).toEqual({
      ok: false,
      message: 'The file has a header row but no data rows under it.',
    });
  });
});

describe('toCsv', () => {
  it('keeps a cell a spreadsheet would run as a formula as text, and quotes commas', () => {
    const text = toCsv(['organization', 'error'], [['=HYPERLINK("x")', 'a, b']]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const parsed = parseCsv(text);
    expect(parsed.ok && parsed.csv.rows[0]).toEqual([`'=HYPERLINK("x")`, 'a, b']);
  });
});

describe('autoMap', () => {
  it('maps export headers to the spec fields by name, each column once', () => {
    const headers = ['Company Name', 'Site', 'Time Zone', 'Zip', 'Contact Email', 'External ID', 'Notes'];
    expect(autoMap(ORG_FIELDS, headers)).toEqual({
      organization: 0,
      site: 1,
      timezone: 2,
      'address.postalCode': 3,
      'contact.email': 4,
      externalId: 5,
    });
    expect(autoMap(CONTACT_FIELDS, ['Org', 'Full Name', 'E-mail', 'Cell', 'Role'])).toEqual({
      organization: 0,
      name: 1,
      email: 2,
      mobile: 3,
      roles: 4,
    });
  });
});

describe('organization rows', () => {
  it('leave blank cells out, gather address and contact objects, and group by name', () => {
    const built = buildOrgRow(
      valueOf({
        organization: 'Acme Ltd',
        site: 'HQ',
        timezone: '',
        'address.city': 'Leeds',
        'address.country': 'UK',
        'contact.email': 'it@acme.example',
      }),
    );
    expect(built).toEqual({
      ok: true,
      group: 'acme ltd',
      row: {
        organization: 'Acme Ltd',
        site: 'HQ',
        address: { city: 'Leeds', country: 'UK' },
        contact: { email: 'it@acme.example' },
      },
    });
    expect(buildOrgRow(valueOf({ site: 'HQ' }))).toEqual({
      ok: false,
      problem: 'No organization name',
    });
  });
});

describe('contact rows', () => {
  it('take an organization id or name, split roles, and refuse a row with no identifier before sending', () => {
    const id = '0b6f1d1e-8a55-4a8b-9d3f-2f1f0c0c5a11';
    const built = buildContactRow(
      valueOf({ organization: id, name: 'Dana', roles: 'Billing; after hours,technical' }),
    );
    expect(built).toEqual({
      ok: true,
      group: id,
      row: { organizationId: id, name: 'Dana', roles: ['billing', 'after_hours', 'technical'] },
    });
    expect(buildContactRow(valueOf({ organization: 'Acme', title: 'CFO' }))).toEqual({
      ok: false,
      problem: 'None of name, email, phone or mobile (no-identifier)',
    });
    expect(parseRoles(' Admin | admin ')).toEqual(['admin']);
  });
});

describe('chunkByGroup', () => {
  it('packs rows into requests of at most 1000 and never splits an organization across two', () => {
    const rows = [
      ...Array.from({ length: 990 }, (_, i) => ({ group: `org-${i}` })),
      ...Array.from({ length: 20 }, () => ({ group: 'big' })),
      { group: 'org-0' },
    ];
    const chunks = chunkByGroup(rows);
    expect(chunks.map((c) => c.length)).toEqual([991, 20]);
    expect(chunks[0]?.filter((r) => r.group === 'org-0')).toHaveLength(2);
    expect(chunks[1]?.every((r) => r.group === 'big')).toBe(true);
    expect(ROWS_PER_REQUEST).toBe(1000);
  });

  it('splits only a group that alone is larger than a request', () => {
    const chunks = chunkByGroup(
      Array.from({ length: 5 }, () => ({ group: 'one' })),
      2,
    );
    expect(chunks.map((c) => c.length)).toEqual([2, 2, 1]);
  });

  it('sends only rows that could be built, keeping their file positions', () => {
    const sent = sendableRows([
      { ok: true, row: 'a', group: 'g' },
      { ok: false, problem: 'No organization name' },
      { ok: true, row: 'c', group: 'h' },
    ]);
    expect(sent.map((s) => s.index)).toEqual([0, 2]);
  });
});

describe('contactChanges', () => {
  const contact: Contact = {
    id: 'c1',
    orgId: 'o1',
    siteId: 's1',
    name: 'Dana',
    email: 'dana@example.com',
    phone: '+1 555 0100',
    mobile: null,
    title: null,
    roles: ['billing'],
    externalLinks: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const same = { name: 'Dana', email: 'dana@example.com', phone: '+1 555 0100', mobile: '', title: '' };

  it('sends nothing when nothing changed', () => {
    expect(contactChanges(contact, same, 's1', ['billing'])).toEqual({});
  });

  it('sends an emptied field, the site and the roles as explicit nulls, which clear them', () => {
    expect(contactChanges(contact, { ...same, phone: '  ', title: 'CFO' }, '', [])).toEqual({
      phone: null,
      title: 'CFO',
      siteId: null,
      roles: null,
    });
  });
});
