import { coreCases } from './filter-cases-core';
import {
  c,
  fold,
  has,
  ms,
  DAY,
  dayStart,
  monthsAgo,
  daysSince,
  num,
  picked,
  type Case,
  type Picked,
} from './filter-oracle';
import { fleet, ids } from './filters-suite';

// The oracle's case tables by field group: each condition with the devices it must select. Built after the fleet
// is seeded (call cases() inside a test).

export function cases(): Array<[string, Case[]]> {
  const p = picked();
  return [...coreCases(p), ...deviceCases(p)];
}

/** Capability checks, OS, hardware, network, metrics, software, hierarchy, computed and custom fields. */
function deviceCases(p: Picked): Array<[string, Case[]]> {
  const { withRam, site, enrolledDays, today, g1, g2, seenIp, cf } = p;
  return [
    [
      'capability checks',
      [
        c('patches.pending', 'equals', true, (d) => d.patchesPending),
        c('patches.pending', 'notEquals', true, (d) => !d.patchesPending),
        c('alerts.critical', 'equals', true, (d) => d.alertsCritical),
        c('alerts.critical', 'notEquals', false, (d) => d.alertsCritical),
        c('system.rebootRequired', 'equals', true, (d) => d.rebootRequired === true),
        c('system.rebootRequired', 'equals', false, (d) => d.rebootRequired === false),
        // Unknown reboot state is "not known to need a reboot".
        c('system.rebootRequired', 'notEquals', true, (d) => d.rebootRequired !== true),
      ],
    ],
    [
      'OS',
      [
        c('osType', 'equals', 'windows', (d) => d.osType === 'windows'),
        c('osType', 'notEquals', 'windows', (d) => d.osType !== 'windows'),
        c('osType', 'in', ['macos', 'linux'], (d) => d.osType === 'macos' || d.osType === 'linux'),
        c('osType', 'notIn', ['macos'], (d) => d.osType !== 'macos'),
        c('osVersion', 'contains', 'WINDOWS', (d) => has(d.osVersion, 'windows')),
        c('osVersion', 'startsWith', 'macOS', (d) => d.osVersion.startsWith('macOS')),
        c('osVersion', 'endsWith', 'lts', (d) => fold(d.osVersion).endsWith('lts')),
        c('osVersion', 'matches', '(?i)server', (d) => /server/i.test(d.osVersion)),
        c('osVersion', 'notContains', 'windows', (d) => !has(d.osVersion, 'windows')),
        c('osBuild', 'equals', '22631', (d) => d.osBuild === '22631'),
        c('osBuild', 'notEquals', '22631', (d) => d.osBuild !== '22631'),
        c('osBuild', 'isNull', undefined, (d) => d.osBuild === null),
        c('osBuild', 'isNotNull', undefined, (d) => d.osBuild !== null),
        c('architecture', 'equals', 'arm64', (d) => d.architecture === 'arm64'),
        c('architecture', 'notEquals', 'x64', (d) => d.architecture !== 'x64'),
        c('architecture', 'in', ['x86', 'arm64'], (d) => d.architecture !== 'x64'),
        c('architecture', 'notIn', ['x64'], (d) => d.architecture !== 'x64'),
      ],
    ],
    [
      'hardware',
      [
        c('hardware.manufacturer', 'equals', 'LENOVO', (d) => d.hardware.manufacturer === 'LENOVO'),
        c('hardware.manufacturer', 'contains', 'dell', (d) => has(d.hardware.manufacturer, 'dell')),
        c('hardware.manufacturer', 'in', ['Apple', 'HP'], (d) =>
          ['Apple', 'HP'].includes(d.hardware.manufacturer!),
        ),
        c('hardware.manufacturer', 'isNull', undefined, (d) => d.hardware.manufacturer === null),
        c('hardware.model', 'startsWith', 'opti', (d) => has(d.hardware.model?.slice(0, 4), 'opti')),
        c('hardware.model', 'notContains', 'book', (d) => !has(d.hardware.model, 'book')),
        c(
          'hardware.serialNumber',
          'endsWith',
          '_x',
          (d) => has(d.hardware.serialNumber, '_x') && fold(d.hardware.serialNumber!).endsWith('_x'),
        ),
        c('hardware.serialNumber', 'isNull', undefined, (d) => d.hardware.serialNumber === null),
        c('hardware.cpuModel', 'contains', 'ryzen', (d) => has(d.hardware.cpuModel, 'ryzen')),
        c(
          'hardware.cpuModel',
          'matches',
          '^Intel\\(R\\)',
          (d) => d.hardware.cpuModel?.startsWith('Intel(R)') ?? false,
        ),
        c('hardware.gpuModel', 'isNull', undefined, (d) => d.hardware.gpuModel === null),
        c('hardware.gpuModel', 'notEquals', 'Intel Iris Xe', (d) => d.hardware.gpuModel !== 'Intel Iris Xe'),
        c('hardware.cpuCores', 'greaterThanOrEquals', 8, (d) => (d.hardware.cpuCores ?? -1) >= 8),
        c('hardware.cpuCores', 'equals', 4, (d) => d.hardware.cpuCores === 4),
        c(
          'hardware.cpuCores',
          'between',
          { from: 4, to: 8 },
          (d) => d.hardware.cpuCores !== null && d.hardware.cpuCores >= 4 && d.hardware.cpuCores <= 8,
        ),
        c(
          'hardware.ramTotalMb',
          'lessThan',
          16384,
          (d) => d.hardware.ramTotalMb !== null && d.hardware.ramTotalMb < 16384,
        ),
        c('hardware.ramTotalMb', 'notEquals', 8192, (d) => d.hardware.ramTotalMb !== 8192),
        c('hardware.diskTotalGb', 'greaterThan', 500, (d) => (d.hardware.diskTotalGb ?? -1) > 500),
        c('hardware.diskTotalGb', 'isNull', undefined, (d) => d.hardware.diskTotalGb === null),
        c('hardware.diskTotalGb', 'isNotNull', undefined, (d) => d.hardware.diskTotalGb !== null),
      ],
    ],
    [
      'network',
      [
        c(
          'network.ipAddress',
          'startsWith',
          '10.1.',
          (d) => d.network.ipAddress?.startsWith('10.1.') ?? false,
        ),
        c('network.ipAddress', 'isNull', undefined, (d) => d.network.ipAddress === null),
        c('network.publicIp', 'isNotNull', undefined, (d) => d.network.publicIp !== null),
        c('network.publicIp', 'contains', '113.1', (d) => has(d.network.publicIp, '113.1')),
        c('network.macAddress', 'isNull', undefined, (d) => d.network.macAddress === null),
        c(
          'network.macAddress',
          'matches',
          '^[0-9A-F]{2}(:[0-9A-F]{2}){5}$',
          (d) => d.network.macAddress !== null,
        ),
        c('network.macAddress', 'startsWith', 'a', (d) => has(d.network.macAddress?.slice(0, 1), 'a')),
        c(
          'lastSeenIp',
          'startsWith',
          '198.51.100.1',
          (d) => d.lastSeenIp?.startsWith('198.51.100.1') ?? false,
        ),
        c('lastSeenIp', 'isNull', undefined, (d) => d.lastSeenIp === null),
        c('lastSeenIp', 'notIn', [seenIp], (d) => d.lastSeenIp !== seenIp),
      ],
    ],
    [
      'metrics',
      [
        c('metrics.cpuPercent', 'greaterThan', 50, (d) => (d.metrics.cpuPercent ?? -1) > 50),
        c(
          'metrics.cpuPercent',
          'lessThanOrEquals',
          10.5,
          (d) => d.metrics.cpuPercent !== null && d.metrics.cpuPercent <= 10.5,
        ),
        c(
          'metrics.cpuPercent',
          'between',
          { from: 20, to: 40 },
          (d) => d.metrics.cpuPercent !== null && d.metrics.cpuPercent >= 20 && d.metrics.cpuPercent <= 40,
        ),
        c('metrics.cpuPercent', 'isNull', undefined, (d) => d.metrics.cpuPercent === null),
        c(
          'metrics.ramPercent',
          'equals',
          withRam.metrics.ramPercent,
          (d) => d.metrics.ramPercent === withRam.metrics.ramPercent,
        ),
        c(
          'metrics.ramPercent',
          'notEquals',
          withRam.metrics.ramPercent,
          (d) => d.metrics.ramPercent !== withRam.metrics.ramPercent,
        ),
        c('metrics.ramPercent', 'greaterThanOrEquals', 80, (d) => (d.metrics.ramPercent ?? -1) >= 80),
        c(
          'metrics.diskPercent',
          'lessThan',
          25,
          (d) => d.metrics.diskPercent !== null && d.metrics.diskPercent < 25,
        ),
        c('metrics.diskPercent', 'isNotNull', undefined, (d) => d.metrics.diskPercent !== null),
      ],
    ],
    [
      'software',
      [
        c('software.installed', 'contains', 'chrome', (d) => d.software.some((s) => has(s, 'chrome'))),
        c('software.installed', 'contains', 'node_', (d) => d.software.includes('node_exporter')),
        c('software.installed', 'notContains', 'office', (d) => !d.software.some((s) => has(s, 'office'))),
        c('software.installed', 'equals', 'slack', (d) => d.software.some((s) => fold(s) === 'slack')),
        c('software.installed', 'in', ['Zoom', '7-Zip'], (d) =>
          d.software.some((s) => s === 'Zoom' || s === '7-Zip'),
        ),
        c('software.installed', 'hasAny', ['zoom', 'SLACK'], (d) =>
          d.software.some((s) => ['zoom', 'slack'].includes(fold(s))),
        ),
        c(
          'software.installed',
          'hasAll',
          ['google chrome', 'Zoom'],
          (d) => d.software.includes('Google Chrome') && d.software.includes('Zoom'),
        ),
        c('software.notInstalled', 'contains', 'zip', (d) => !d.software.some((s) => has(s, 'zip'))),
      ],
    ],
    [
      'hierarchy',
      [
        c('orgId', 'equals', ids.a2, (d) => d.orgId === ids.a2),
        c('orgId', 'in', [ids.a1, ids.b1], (d) => d.orgId === ids.a1 || d.orgId === ids.b1),
        c('siteId', 'equals', site.id, (d) => d.siteId === site.id),
        c(
          'siteId',
          'in',
          fleet.sites.slice(0, 3).map((s) => s.id),
          (d) => fleet.sites.slice(0, 3).some((s) => s.id === d.siteId),
        ),
        c('groupId', 'equals', g1, (d) => d.groupIds.includes(g1)),
        c('groupId', 'in', [g1, g2], (d) => d.groupIds.includes(g1) || d.groupIds.includes(g2)),
      ],
    ],
    [
      'computed',
      [
        c('daysSinceLastSeen', 'greaterThan', 7, (d, now) => (daysSince(now, d.lastSeenAt) ?? -1) > 7),
        c(
          'daysSinceLastSeen',
          'lessThan',
          2,
          (d, now) => d.lastSeenAt !== null && daysSince(now, d.lastSeenAt)! < 2,
        ),
        c('daysSinceLastSeen', 'between', { from: 1, to: 10 }, (d, now) => {
          const n = daysSince(now, d.lastSeenAt);
          return n !== null && n >= 1 && n <= 10;
        }),
        c(
          'daysSinceLastSeen',
          'equals',
          0,
          (d, now) => d.lastSeenAt !== null && Math.floor(daysSince(now, d.lastSeenAt)!) === 0,
        ),
        c(
          'daysSinceLastSeen',
          'notEquals',
          0,
          (d, now) => d.lastSeenAt === null || Math.floor(daysSince(now, d.lastSeenAt)!) !== 0,
        ),
        c('daysSinceLastSeen', 'isNull', undefined, (d) => d.lastSeenAt === null),
        c('daysSinceEnrolled', 'greaterThanOrEquals', 100, (d, now) => daysSince(now, d.enrolledAt)! >= 100),
        c('daysSinceEnrolled', 'lessThanOrEquals', 60, (d, now) => daysSince(now, d.enrolledAt)! <= 60),
        c(
          'daysSinceEnrolled',
          'equals',
          enrolledDays,
          (d, now) => Math.floor(daysSince(now, d.enrolledAt)!) === enrolledDays,
        ),
      ],
    ],
    [
      'custom',
      [
        // No definition: a string.
        c('custom.assetTag', 'contains', 'at_', (d) => has(cf(d, 'assetTag') as string, 'at_')),
        c('custom.assetTag', 'startsWith', 'AT-', (d) => String(cf(d, 'assetTag') ?? '').startsWith('AT-')),
        c('custom.assetTag', 'contains', '%', (d) => String(cf(d, 'assetTag') ?? '').includes('%')),
        c('custom.assetTag', 'notContains', 'at-', (d) => !has(cf(d, 'assetTag') as string, 'at-')),
        c('custom.assetTag', 'isNull', undefined, (d) => cf(d, 'assetTag') === undefined),
        // Number (defined per partner).
        c('custom.rackUnits', 'greaterThan', 3, (d) => (num(cf(d, 'rackUnits')) ?? -1) > 3),
        c('custom.rackUnits', 'equals', 2, (d) => cf(d, 'rackUnits') === 2),
        c('custom.rackUnits', 'notEquals', 2, (d) => cf(d, 'rackUnits') !== 2),
        c('custom.rackUnits', 'between', { from: 1.5, to: 4.5 }, (d) => {
          const n = num(cf(d, 'rackUnits'));
          return n !== null && n >= 1.5 && n <= 4.5;
        }),
        c(
          'custom.rackUnits',
          'lessThanOrEquals',
          2,
          (d) => num(cf(d, 'rackUnits')) !== null && num(cf(d, 'rackUnits'))! <= 2,
        ),
        c('custom.rackUnits', 'isNull', undefined, (d) => cf(d, 'rackUnits') === undefined),
        // Boolean (defined per organization).
        c('custom.backupEnabled', 'equals', true, (d) => cf(d, 'backupEnabled') === true),
        c('custom.backupEnabled', 'equals', false, (d) => cf(d, 'backupEnabled') === false),
        c('custom.backupEnabled', 'notEquals', true, (d) => cf(d, 'backupEnabled') !== true),
        c('custom.backupEnabled', 'isNull', undefined, (d) => cf(d, 'backupEnabled') === undefined),
        c('custom.backupEnabled', 'isNotNull', undefined, (d) => cf(d, 'backupEnabled') !== undefined),
        // Datetime (defined per organization).
        c(
          'custom.warrantyEnds',
          'before',
          today,
          (d) =>
            ms(cf(d, 'warrantyEnds') as string) !== null &&
            ms(cf(d, 'warrantyEnds') as string)! < dayStart(today),
        ),
        c(
          'custom.warrantyEnds',
          'after',
          today,
          (d) =>
            ms(cf(d, 'warrantyEnds') as string) !== null &&
            ms(cf(d, 'warrantyEnds') as string)! >= dayStart(today) + DAY,
        ),
        c('custom.warrantyEnds', 'withinLast', { amount: 6, unit: 'months' }, (d, now) => {
          const t = ms(cf(d, 'warrantyEnds') as string);
          return t !== null && t >= monthsAgo(now, 6);
        }),
        c('custom.warrantyEnds', 'isNull', undefined, (d) => cf(d, 'warrantyEnds') === undefined),
      ],
    ],
  ];
}
