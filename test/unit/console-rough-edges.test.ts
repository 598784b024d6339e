// The pure helpers behind issue 16's rough edges, without their screens: count words (lib/format plural), the
// role editor's vocabulary without the features Gatehouse lacks, the filter builder's field list, and the global
// search's page matching and sharing of its limit (server/modules/search). A new rule's verdict: pam-policy e2e.
import { describe, expect, it } from 'vitest';
import { plural } from '../../renderer/src/lib/format';
import { FIELDS, fieldDef, isOffered } from '../../renderer/src/features/filters/fields';
import { offeredVocabulary } from '../../renderer/src/features/people/role-model';
import { CONSOLE_PAGES, pageRank } from '../../server/modules/search/pages';
import { shareLimit } from '../../server/modules/search/service';

describe('plural', () => {
  it('says one thing in the singular and every other count in the plural, grouped', () => {
    expect(plural(1, 'partner')).toBe('1 partner');
    expect(plural(0, 'partner')).toBe('0 partners');
    expect(plural(1204, 'entry', 'entries')).toBe('1,204 entries');
    expect(plural(1, 'user holds', 'users hold')).toBe('1 user holds');
  });
});

describe('offeredVocabulary', () => {
  it('drops the resources of features Gatehouse does not have and keeps its own', () => {
    const offered = offeredVocabulary({
      resources: [
        'devices',
        'scripts',
        'alerts',
        'automations',
        'reports',
        'users',
        'settings',
        'remote',
        'sites',
      ],
      actions: ['view', 'create'],
      special: [
        { resource: 'audit', action: 'read', description: 'Read the audit log' },
        { resource: 'pam', action: 'approve', description: 'Approve' },
        { resource: 'alerts', action: 'acknowledge', description: 'Acknowledge' },
      ],
    });
    expect(offered.resources).toEqual(['devices', 'users', 'sites']);
    expect(offered.actions).toEqual(['view', 'create']);
    expect(offered.special.map((p) => `${p.resource}:${p.action}`)).toEqual(['audit:read', 'pam:approve']);
  });
});

describe('device filter fields', () => {
  it('offers no patch or alert field, yet still reads a saved filter that uses one', () => {
    const labels = FIELDS.map((f) => f.label);
    expect(labels).not.toContain('Has a pending patch');
    expect(labels).not.toContain('Has a critical alert');
    expect(labels).toContain('Reboot required');
    expect(isOffered('patches.pending')).toBe(false);
    expect(fieldDef('patches.pending')).toMatchObject({ label: 'Has a pending patch', type: 'capability' });
    expect(isOffered('hostname')).toBe(true);
  });
});

describe('global search pages', () => {
  const page = (id: string) => CONSOLE_PAGES.find((p) => p.id === id)!;

  it('ranks a title prefix, then a title match, then a synonym; singular and plural both find a page', () => {
    expect(pageRank(page('approvals'), 'approval')).toBe(0);
    expect(pageRank(page('active-elevations'), 'elevation')).toBe(1);
    expect(pageRank(page('approvals'), 'elevation')).toBe(2);
    expect(pageRank(page('approvals'), 'elevations')).toBe(2);
    expect(pageRank(page('partner-settings'), 'security')).toBe(2);
    expect(pageRank(page('devices'), 'webhook')).toBeNull();
  });

  it('names only console paths that exist as sections or their tabs', () => {
    const roots = [
      '/',
      '/approvals',
      '/pam',
      '/devices',
      '/filters',
      '/audit',
      '/webhooks',
      '/access-reviews',
      '/tenants',
      '/users',
      '/keys',
      '/settings',
      '/profile',
    ];
    for (const p of CONSOLE_PAGES)
      expect(
        roots.some((r) => p.href === r || p.href.startsWith(`${r}/`)),
        p.href,
      ).toBe(true);
  });
});

describe('shareLimit', () => {
  it('gives every list a turn before any gets a second, and what short lists leave to the long ones', () => {
    expect(shareLimit([[1, 2, 3], [4, 5, 6], [7]], 5)).toEqual([[1, 2], [4, 5], [7]]);
    expect(shareLimit([[1, 2, 3, 4, 5], [], [6]], 4)).toEqual([[1, 2, 3], [], [6]]);
    expect(shareLimit([[1], [2]], 10)).toEqual([[1], [2]]);
    expect(
      shareLimit(
        [
          [1, 2],
          [3, 4],
        ],
        0,
      ),
    ).toEqual([[], []]);
  });
});
