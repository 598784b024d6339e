import { describe, expect, it } from 'vitest';
import { catalogFor, LOG_NAMES } from '../../agent-sim/event-catalog';
import { EventLogStore } from '../../agent-sim/eventlog';
import { agentIdentity, type OsType } from '../../agent-sim/identity';

// A simulated machine's own operating-system logs: what live event-log queries are answered from.

const ANCHOR = Date.parse('2026-03-01T12:00:00Z');

function machineOf(osType: OsType, seed = 4): { store: EventLogStore; index: number } {
  let index = 0;
  while (agentIdentity(seed, index).osType !== osType) index++;
  return { store: new EventLogStore(agentIdentity(seed, index), seed, index, ANCHOR), index };
}

describe('synthetic event logs', () => {
  it('lists Application, System, Security and Setup with spec 2 descriptors', () => {
    const { store } = machineOf('windows');
    const logs = store.list();
    expect(logs.map((l) => l.name)).toEqual(['Application', 'System', 'Security', 'Setup']);
    for (const log of logs) {
      expect(log.recordCount).toBeGreaterThanOrEqual(60);
      expect(log.recordCount).toBeLessThanOrEqual(600);
      expect(log.maxSize).toBeGreaterThan(0);
      expect(Number.isInteger(log.retentionDays)).toBe(true);
      expect(Date.parse(log.lastWriteTime!)).toBeLessThanOrEqual(ANCHOR);
    }
  });

  it('is the same log for the same seed and machine, generated lazily', () => {
    const a = machineOf('linux').store;
    const b = machineOf('linux').store;
    expect(b.query('System', { limit: 1000 })).toEqual(a.query('System', { limit: 1000 }));
    expect(machineOf('linux', 5).store.query('System', { limit: 5 })).not.toEqual(
      a.query('System', { limit: 5 }),
    );
  });

  it('resolves names case-insensitively and knows what it does not have', () => {
    const { store } = machineOf('macos');
    expect(store.info('security')?.name).toBe('Security');
    expect(store.info('  SETUP ')?.name).toBe('Setup');
    expect(store.info('Forwarded Events')).toBeNull();
    expect(store.query('Nope', {})).toBeNull();
    expect(store.get('Nope', 1)).toBeNull();
  });

  it('queries newest first with level, source, event id and time filters, and pages', () => {
    const { store } = machineOf('windows');
    const all = store.query('Security', { limit: 1000 })!;
    expect(all.total).toBe(store.info('Security')!.recordCount);
    const times = all.events.map((e) => Date.parse(e.timeCreated));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(all.events[0]!.recordId).toBeGreaterThan(all.events[1]!.recordId);

    const warnings = store.query('Security', { level: 'warning', limit: 1000 })!;
    expect(warnings.total).toBeGreaterThan(0);
    expect(warnings.events.every((e) => e.level === 'warning')).toBe(true);
    const several = store.query('Security', { level: 'warning,information', limit: 1000 })!;
    expect(several.total).toBe(all.total);

    const logons = store.query('Security', { eventId: 4624, limit: 1000 })!;
    expect(logons.total).toBeGreaterThan(0);
    expect(logons.events.every((e) => e.eventId === 4624 && e.category === 'Logon')).toBe(true);
    expect(store.query('Security', { eventId: '4624', limit: 1000 })!.total).toBe(logons.total);

    const auditing = store.query('Security', { source: 'security-auditing', limit: 1000 })!;
    expect(auditing.events.every((e) => e.source === 'Microsoft-Windows-Security-Auditing')).toBe(true);

    const middle = all.events[Math.floor(all.events.length / 2)]!.timeCreated;
    const older = store.query('Security', { endTime: middle, limit: 1000 })!;
    expect(older.events.every((e) => e.timeCreated <= middle)).toBe(true);
    const newer = store.query('Security', { startTime: middle, limit: 1000 })!;
    expect(older.total + newer.total).toBe(all.total + 1);

    const page2 = store.query('Security', { page: 2, limit: 10 })!;
    expect(page2).toMatchObject({ page: 2, limit: 10, total: all.total });
    expect(page2.events).toEqual(all.events.slice(10, 20));
    expect(store.query('Security', { page: 10_000, limit: 10 })!.events).toEqual([]);
  });

  it('gets one record by id, with Event XML that carries it (escaped)', () => {
    const { store } = machineOf('windows');
    const [newest] = store.query('Application', { limit: 1 })!.events;
    const record = store.get('application', newest!.recordId)!;
    expect(record).toEqual(newest);
    expect(record.rawXml).toMatch(
      /^<Event xmlns="http:\/\/schemas\.microsoft\.com\/win\/2004\/08\/events\/event">/,
    );
    expect(record.rawXml).toContain(`<EventRecordID>${record.recordId}</EventRecordID>`);
    expect(record.rawXml).toContain(`<EventID>${record.eventId}</EventID>`);
    expect(record.rawXml).toContain('<Channel>Application</Channel>');
    expect(record.computer).toMatch(/\.local$/);
    // Messages with quotes, ampersands or angle brackets must not break the XML.
    const text = record.rawXml.replace(/<[^>]*>/g, '');
    expect(text).not.toMatch(/[<>]/);
    expect(store.get('Application', record.recordId + 100_000)).toBeNull();
  });

  it('grows as the machine runs; new records report as stored device events', () => {
    const { store } = machineOf('linux');
    const before = store.list();
    const appended = store.append(25, ANCHOR + 60_000);
    expect(appended).toHaveLength(25);
    const after = store.list();
    expect(after.reduce((n, l) => n + l.recordCount, 0)).toBe(
      before.reduce((n, l) => n + l.recordCount, 0) + 25,
    );
    for (const { log, entry, template } of appended) {
      expect(store.get(log, entry.recordId)).toEqual(entry);
      const event = EventLogStore.toDeviceEvent(entry, template, log);
      expect(['info', 'warning', 'error', 'critical']).toContain(event.level);
      expect(['security', 'hardware', 'application', 'system']).toContain(event.category);
      expect(event.eventId).toBe(String(entry.eventId));
      expect(event.details).toMatchObject({ log, recordId: entry.recordId });
    }
  });

  it('rolls the oldest records off a full log, as "overwrite as needed" does', () => {
    const { store } = machineOf('windows');
    const oldest = store.query('Setup', { limit: 1000 })!.events.at(-1)!;
    expect(store.get('Setup', oldest.recordId)).toEqual(oldest);
    let t = ANCHOR;
    for (let i = 0; i < 40; i++) store.append(200, (t += 60_000));
    const logs = store.list();
    expect(logs.find((l) => l.name === 'Setup')!.recordCount).toBe(300);
    expect(logs.find((l) => l.name === 'Security')!.recordCount).toBe(1000);
    expect(store.get('Setup', oldest.recordId)).toBeNull();
    const all = store.query('Setup', { limit: 1000 })!;
    expect(all.total).toBe(300);
    // Still contiguous ids, newest first, and every one readable.
    const ids = all.events.map((e) => e.recordId);
    expect(ids[0]! - ids.at(-1)!).toBe(299);
    expect(store.get('setup', ids.at(-1)!)).toEqual(all.events.at(-1));
  });

  it('picks recent noteworthy events for the first report', () => {
    const { store } = machineOf('windows');
    const notable = store.recentNotable(20);
    expect(notable.length).toBeGreaterThan(0);
    expect(notable.length).toBeLessThanOrEqual(20);
    for (const { log, entry } of notable)
      expect(entry.level !== 'information' || log === 'Security').toBe(true);
  });

  it('uses OS-appropriate sources: Windows event sources, syslog programs, unified-log subsystems', () => {
    expect(catalogFor('windows').System.map((t) => t.source)).toContain('Service Control Manager');
    expect(catalogFor('linux').Security.map((t) => t.source)).toContain('sshd');
    expect(catalogFor('macos').System.map((t) => t.source)).toContain('com.apple.xpc.launchd');
    for (const os of ['windows', 'macos', 'linux'] as const)
      for (const name of LOG_NAMES) expect(catalogFor(os)[name].length).toBeGreaterThan(0);
  });
});
