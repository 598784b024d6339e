import { c, fold, has, ms, DAY, dayStart, monthsAgo, type Case, type Picked } from './filter-oracle';

// The oracle's cases for the core device fields (hostname, display name, agent version, last user, status,
// enrollment and last-seen dates, tags): every operator of their types.

export function coreCases(p: Picked): Array<[string, Case[]]> {
  const { withUptime, enrolled, h1, h2, enrolledDay, mid, recent, older, today, tagPair } = p;
  return [
    [
      'core',
      [
        c('hostname', 'equals', h1, (d) => d.hostname === h1),
        c('hostname', 'notEquals', h1, (d) => d.hostname !== h1),
        c('hostname', 'contains', 'web', (d) => has(d.hostname, 'web')),
        c('hostname', 'notContains', 'WEB', (d) => !has(d.hostname, 'web')),
        c('hostname', 'startsWith', 'lab_', (d) => fold(d.hostname).startsWith('lab_')),
        c('hostname', 'startsWith', 'fin%', (d) => fold(d.hostname).startsWith('fin%')),
        c('hostname', 'endsWith', '7', (d) => d.hostname.endsWith('7')),
        c('hostname', 'matches', '^(web|db)\\d+$', (d) => /^(web|db)\d+$/.test(d.hostname)),
        c('hostname', 'matches', '(?i)^web', (d) => /^web/i.test(d.hostname)),
        c('hostname', 'in', [h1, h2], (d) => d.hostname === h1 || d.hostname === h2),
        c('hostname', 'notIn', [h1, h2], (d) => d.hostname !== h1 && d.hostname !== h2),
        c('hostname', 'isNull', undefined, () => false, true),
        c('hostname', 'isNotNull', undefined, () => true, true),
        c('displayName', 'contains', '100%', (d) => has(d.displayName, '100%')),
        c('displayName', 'equals', 'Front desk', (d) => d.displayName === 'Front desk'),
        c('displayName', 'notEquals', 'Front desk', (d) => d.displayName !== 'Front desk'),
        c('displayName', 'notContains', 'desk', (d) => !has(d.displayName, 'desk')),
        c('displayName', 'startsWith', 'build_', (d) => has(d.displayName?.slice(0, 6), 'build_')),
        c(
          'displayName',
          'notIn',
          ['Front desk', 'Lab bench'],
          (d) => !['Front desk', 'Lab bench'].includes(d.displayName!),
        ),
        c('displayName', 'isNull', undefined, (d) => d.displayName === null),
        c('displayName', 'isNotNull', undefined, (d) => d.displayName !== null),
        c('agentVersion', 'startsWith', '1.4', (d) => d.agentVersion.startsWith('1.4')),
        c('agentVersion', 'equals', '1.5.0', (d) => d.agentVersion === '1.5.0'),
        c('agentVersion', 'matches', '-beta', (d) => d.agentVersion.includes('-beta')),
        c(
          'lastUser',
          'endsWith',
          'backup',
          (d) => has(d.lastUser, 'backup') && fold(d.lastUser!).endsWith('backup'),
        ),
        c('lastUser', 'contains', 'corp\\', (d) => has(d.lastUser, 'corp\\')),
        c('lastUser', 'in', ['alice', 'bob'], (d) => d.lastUser === 'alice' || d.lastUser === 'bob'),
        c('lastUser', 'isNull', undefined, (d) => d.lastUser === null),
        c('status', 'equals', 'online', (d) => d.status === 'online'),
        c('status', 'notEquals', 'online', (d) => d.status !== 'online'),
        c(
          'status',
          'in',
          ['offline', 'maintenance'],
          (d) => d.status === 'offline' || d.status === 'maintenance',
        ),
        c('status', 'notIn', ['online', 'offline'], (d) => d.status !== 'online' && d.status !== 'offline'),
        // Decommissioned devices never match, even when asked for by name.
        c('status', 'equals', 'decommissioned', () => false, true),
        c('enrolledAt', 'equals', enrolledDay, (d) => d.enrolledAt.slice(0, 10) === enrolledDay),
        c('enrolledAt', 'equals', enrolled.enrolledAt, (d) => d.enrolledAt === enrolled.enrolledAt),
        c('enrolledAt', 'notEquals', enrolledDay, (d) => d.enrolledAt.slice(0, 10) !== enrolledDay),
        c('enrolledAt', 'before', mid, (d) => ms(d.enrolledAt)! < dayStart(mid)),
        c('enrolledAt', 'after', mid, (d) => ms(d.enrolledAt)! >= dayStart(mid) + DAY),
        c('enrolledAt', 'between', { from: mid, to: today }, (d) => {
          const t = ms(d.enrolledAt)!;
          return t >= dayStart(mid) && t < dayStart(today) + DAY;
        }),
        c(
          'enrolledAt',
          'withinLast',
          { amount: 30, unit: 'days' },
          (d, now) => ms(d.enrolledAt)! >= now - 30 * DAY,
        ),
        c(
          'enrolledAt',
          'notWithinLast',
          { amount: 3, unit: 'months' },
          (d, now) => ms(d.enrolledAt)! < monthsAgo(now, 3),
        ),
        c(
          'enrolledAt',
          'withinLast',
          { amount: 8, unit: 'weeks' },
          (d, now) => ms(d.enrolledAt)! >= now - 56 * DAY,
        ),
        c('enrolledAt', 'isNull', undefined, () => false, true),
        c('enrolledAt', 'isNotNull', undefined, () => true, true),
        c(
          'lastSeenAt',
          'withinLast',
          { amount: 36, unit: 'hours' },
          (d, now) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! >= now - 1.5 * DAY,
        ),
        c(
          'lastSeenAt',
          'withinLast',
          { amount: 7200, unit: 'minutes' },
          (d, now) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! >= now - 5 * DAY,
        ),
        // Never seen is "not seen within the last week" too.
        c(
          'lastSeenAt',
          'notWithinLast',
          { amount: 7, unit: 'days' },
          (d, now) => ms(d.lastSeenAt) === null || ms(d.lastSeenAt)! < now - 7 * DAY,
        ),
        c(
          'lastSeenAt',
          'before',
          recent,
          (d) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! < Date.parse(recent),
        ),
        c(
          'lastSeenAt',
          'after',
          recent,
          (d) => ms(d.lastSeenAt) !== null && ms(d.lastSeenAt)! > Date.parse(recent),
        ),
        c('lastSeenAt', 'between', { from: older, to: recent }, (d) => {
          const t = ms(d.lastSeenAt);
          return t !== null && t >= Date.parse(older) && t <= Date.parse(recent);
        }),
        c('lastSeenAt', 'isNull', undefined, (d) => d.lastSeenAt === null),
        c('lastSeenAt', 'isNotNull', undefined, (d) => d.lastSeenAt !== null),
        c('quarantinedAt', 'isNotNull', undefined, (d) => d.quarantinedAt !== null),
        c(
          'quarantinedAt',
          'withinLast',
          { amount: 10, unit: 'days' },
          (d, now) => ms(d.quarantinedAt) !== null && ms(d.quarantinedAt)! >= now - 10 * DAY,
        ),
        c('quarantinedAt', 'isNull', undefined, (d) => d.quarantinedAt === null),
        c('tags', 'hasAny', ['vip', 'finance'], (d) =>
          d.tags.some((t) => ['vip', 'finance'].includes(fold(t))),
        ),
        c('tags', 'hasAny', ['PRODUCTION'], (d) => d.tags.some((t) => fold(t) === 'production')),
        c('tags', 'hasAll', tagPair, (d) => tagPair.every((v) => d.tags.some((t) => fold(t) === fold(v)))),
        c('tags', 'hasAll', ['staging'], (d) => d.tags.includes('staging')),
        c('tags', 'isEmpty', undefined, (d) => d.tags.length === 0),
        c('tags', 'isNotEmpty', undefined, (d) => d.tags.length > 0),
        c('tags', 'contains', 'lab_', (d) => d.tags.some((t) => has(t, 'lab_'))),
        c('tags', 'contains', '%', (d) => d.tags.some((t) => t.includes('%'))),
        c('tags', 'contains', 'PROD', (d) => d.tags.some((t) => has(t, 'prod'))),
        c('deviceRole', 'equals', 'server', (d) => d.deviceRole === 'server'),
        c('deviceRole', 'notEquals', 'workstation', (d) => d.deviceRole !== 'workstation'),
        c('deviceRole', 'in', ['printer', 'router', 'nas'], (d) =>
          ['printer', 'router', 'nas'].includes(d.deviceRole),
        ),
        c(
          'deviceRole',
          'notIn',
          ['workstation', 'server'],
          (d) => !['workstation', 'server'].includes(d.deviceRole),
        ),
        c('isHeadless', 'equals', true, (d) => d.isHeadless),
        c('isHeadless', 'notEquals', true, (d) => !d.isHeadless),
        c('isHeadless', 'isNull', undefined, () => false, true),
        c('isHeadless', 'isNotNull', undefined, () => true, true),
        c(
          'uptimeSeconds',
          'equals',
          withUptime.uptimeSeconds,
          (d) => d.uptimeSeconds === withUptime.uptimeSeconds,
        ),
        c(
          'uptimeSeconds',
          'notEquals',
          withUptime.uptimeSeconds,
          (d) => d.uptimeSeconds !== withUptime.uptimeSeconds,
        ),
        c(
          'uptimeSeconds',
          'greaterThan',
          2_000_000,
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds > 2_000_000,
        ),
        c(
          'uptimeSeconds',
          'lessThanOrEquals',
          1_000_000,
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds <= 1_000_000,
        ),
        c(
          'uptimeSeconds',
          'between',
          { from: 500_000, to: 3_000_000 },
          (d) => d.uptimeSeconds !== null && d.uptimeSeconds >= 500_000 && d.uptimeSeconds <= 3_000_000,
        ),
        c('uptimeSeconds', 'isNull', undefined, (d) => d.uptimeSeconds === null),
        c('watchdogStatus', 'equals', 'connected', (d) => d.watchdogStatus === 'connected'),
        c('watchdogStatus', 'notEquals', 'connected', (d) => d.watchdogStatus !== 'connected'),
        c(
          'watchdogStatus',
          'in',
          ['failover', 'offline'],
          (d) => d.watchdogStatus === 'failover' || d.watchdogStatus === 'offline',
        ),
        c(
          'watchdogStatus',
          'notIn',
          ['failover', 'offline'],
          (d) => d.watchdogStatus !== 'failover' && d.watchdogStatus !== 'offline',
        ),
      ],
    ],
  ];
}
