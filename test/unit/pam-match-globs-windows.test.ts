import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../server/modules/pam/policy/glob';
import { compileTimeWindow, isValidTimeZone, wallClock } from '../../server/modules/pam/policy/time-window';
import { AT, obs, matches } from '../support/pam-match-world';

// The PAM rule matcher: path globs, and time windows in UTC and in a zone without daylight saving.

describe('path globs', () => {
  const glob = (pattern: string, path: string) => compileGlob(pattern)(path);

  it('`*` stays within one segment, `**` crosses segments', () => {
    expect(glob('C:\\Tools\\*.exe', 'C:\\Tools\\x.exe')).toBe(true);
    expect(glob('C:\\Tools\\*.exe', 'C:\\Tools\\sub\\x.exe')).toBe(false);
    expect(glob('C:\\Tools\\**.exe', 'C:\\Tools\\sub\\x.exe')).toBe(true);
    expect(glob('C:\\Tools\\**', 'C:\\Tools\\a\\b\\c.dll')).toBe(true);
    expect(glob('C:\\Tools\\**\\x.exe', 'C:\\Tools\\a\\b\\x.exe')).toBe(true);
    expect(glob('C:\\Tools\\**\\x.exe', 'C:\\Tools\\x.exe')).toBe(true);
    expect(glob('**\\x.exe', 'D:\\deep\\er\\x.exe')).toBe(true);
    expect(glob('**/x.exe', 'x.exe')).toBe(true);
    expect(glob('C:\\Users\\*\\Downloads\\*', 'C:\\Users\\bob\\Downloads\\a.exe')).toBe(true);
    expect(glob('C:\\Users\\*\\Downloads\\*', 'C:\\Users\\bob\\x\\Downloads\\a.exe')).toBe(false);
  });

  it('`?` is exactly one character, never a separator', () => {
    expect(glob('C:\\v?\\a.exe', 'C:\\v1\\a.exe')).toBe(true);
    expect(glob('C:\\v?\\a.exe', 'C:\\v12\\a.exe')).toBe(false);
    expect(glob('C:\\v?a.exe', 'C:\\v\\a.exe')).toBe(false);
  });

  it('case-insensitive, `\\` and `/` equivalent, anchored at both ends', () => {
    expect(glob('c:/program files/ACME/*', 'C:\\Program Files\\acme\\Setup.EXE')).toBe(true);
    expect(glob('/usr/bin/*', '\\usr\\bin\\sudo')).toBe(true);
    expect(glob('Tools\\x.exe', 'C:\\Tools\\x.exe')).toBe(false);
    expect(glob('C:\\Tools', 'C:\\Tools\\x.exe')).toBe(false);
  });

  it('regular-expression characters are literal', () => {
    expect(glob('C:\\a+b\\(x)[1].exe', 'C:\\a+b\\(x)[1].exe')).toBe(true);
    expect(glob('C:\\a+b\\(x)[1].exe', 'C:\\aab\\x1.exe')).toBe(false);
    expect(glob('C:\\.*', 'C:\\anything')).toBe(false);
    expect(glob('C:\\$^|{2}', 'C:\\$^|{2}')).toBe(true);
  });

  it('a hostile pattern runs in bounded time', () => {
    const pattern = `${'*a'.repeat(40)}**${'?*'.repeat(40)}b`;
    const path = 'a'.repeat(1024);
    const started = performance.now();
    expect(glob(pattern, path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('time windows', () => {
  const inWindow = (window: Parameters<typeof compileTimeWindow>[0], iso: string) =>
    compileTimeWindow(window)(new Date(iso));

  it('inside and outside a daytime window (UTC by default, end exclusive)', () => {
    const w = { start: '09:00', end: '17:00' };
    expect(inWindow(w, '2026-03-04T09:00:00Z')).toBe(true);
    expect(inWindow(w, '2026-03-04T16:59:59Z')).toBe(true);
    expect(inWindow(w, '2026-03-04T17:00:00Z')).toBe(false);
    expect(inWindow(w, '2026-03-04T08:59:00Z')).toBe(false);
  });

  it('days (0 Sunday - 6 Saturday)', () => {
    const weekdays = { start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5] };
    expect(inWindow(weekdays, '2026-03-04T10:00:00Z')).toBe(true); // Wednesday
    expect(inWindow(weekdays, '2026-03-07T10:00:00Z')).toBe(false); // Saturday
    expect(inWindow({ start: '00:00', end: '00:00', days: [0] }, '2026-03-08T23:59:00Z')).toBe(true);
  });

  it('over midnight: days name the day the window started', () => {
    const friday = { start: '22:00', end: '06:00', days: [5] };
    expect(inWindow(friday, '2026-03-06T22:30:00Z')).toBe(true); // Friday night
    expect(inWindow(friday, '2026-03-07T03:00:00Z')).toBe(true); // Saturday early: started Friday
    expect(inWindow(friday, '2026-03-07T06:00:00Z')).toBe(false);
    expect(inWindow(friday, '2026-03-06T03:00:00Z')).toBe(false); // Friday early: started Thursday
    expect(inWindow(friday, '2026-03-07T22:30:00Z')).toBe(false); // Saturday night
    expect(inWindow(friday, '2026-03-06T12:00:00Z')).toBe(false);
  });

  it('start == end is all day', () => {
    expect(inWindow({ start: '08:00', end: '08:00' }, '2026-03-04T03:00:00Z')).toBe(true);
  });

  it('read on the wall clock of the time zone (Asia/Tokyo, UTC+9, no DST)', () => {
    const tokyoMorning = { start: '09:00', end: '12:00', days: [4], timezone: 'Asia/Tokyo' };
    // 2026-03-05T00:30Z is Thursday 09:30 in Tokyo, still Wednesday in UTC.
    expect(inWindow(tokyoMorning, '2026-03-05T00:30:00Z')).toBe(true);
    expect(inWindow(tokyoMorning, '2026-03-04T09:30:00Z')).toBe(false); // 18:30 Tokyo
    expect(inWindow(tokyoMorning, '2026-03-05T03:00:00Z')).toBe(false); // 12:00 Tokyo
    // Over midnight in Tokyo: Wednesday 23:00 - Thursday 02:00 local.
    const night = { start: '23:00', end: '02:00', days: [3], timezone: 'Asia/Tokyo' };
    expect(inWindow(night, '2026-03-04T14:30:00Z')).toBe(true); // Wed 23:30 Tokyo
    expect(inWindow(night, '2026-03-04T16:30:00Z')).toBe(true); // Thu 01:30 Tokyo
    expect(inWindow(night, '2026-03-05T14:30:00Z')).toBe(false); // Thu 23:30 Tokyo
  });

  it('the wall clock agrees with Intl across daylight-saving changes and odd offsets', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    const days: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
    for (const timeZone of zones) {
      const reference = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      });
      // Every 63 minutes over 2026: each step lands on another minute of the hour, through both DST changes.
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 63 * 60_000 + 7_000) {
        const parts = Object.fromEntries(reference.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
        const expected = {
          day: days[parts.weekday!],
          minute: Number(parts.hour) * 60 + Number(parts.minute),
        };
        const actual = wallClock(new Date(t), timeZone);
        if (actual.day !== expected.day || actual.minute !== expected.minute)
          expect({ timeZone, at: new Date(t).toISOString(), ...actual }).toEqual({
            timeZone,
            at: new Date(t).toISOString(),
            ...expected,
          });
      }
    }
  });

  it('a rule with a window matches only inside it', () => {
    const rule = { matchSigner: 'Acme Corp', timeWindow: { start: '11:00', end: '13:00', days: [3] } };
    expect(matches(rule, obs(), AT)).toBe(true);
    expect(matches(rule, obs(), new Date('2026-03-04T13:30:00Z'))).toBe(false);
  });

  it('an unknown time zone cannot be evaluated, even when other criteria fail', () => {
    expect(isValidTimeZone('Asia/Tokyo')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    const broken = {
      matchSigner: 'Nobody',
      timeWindow: { start: '09:00', end: '17:00', timezone: 'Mars/Olympus_Mons' },
    };
    expect(() => matches(broken)).toThrow();
    expect(() => compileTimeWindow({ start: '25:00', end: '17:00' })).toThrow();
  });
});
