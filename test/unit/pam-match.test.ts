import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import type { Observation } from '../../server/modules/pam/observation';
import { compileGlob } from '../../server/modules/pam/policy/glob';
import {
  decideByRules,
  parseAccount,
  ruleMatches,
  type RuleCriteria,
  type SignerGroupIndex,
} from '../../server/modules/pam/policy/match';
import { policyStore, type RuleFields } from '../../server/modules/pam/policy/store';
import { compileTimeWindow, isValidTimeZone, wallClock } from '../../server/modules/pam/policy/time-window';
import {
  staleTierRules,
  tierReachability,
  warnStaleTierRules,
} from '../../server/modules/pam/policy/stale-tiers';

// The PAM rule matcher (spec 2 "PAM rule"): every criterion positive, negative, negated and negated against a
// missing value; globs; time windows in UTC and in a zone without daylight saving; shapes; and the decision
// order over real SQLite rows (priority, age, site vs organization-wide, disabled, broken rules).

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);
const T1 = 'c'.repeat(64);
/** A Wednesday, 12:00 UTC. */
const AT = new Date('2026-03-04T12:00:00Z');

const EMPTY: RuleCriteria = {
  matchSigner: null,
  matchSignerGroupId: null,
  matchSignerThumbprint: null,
  matchHash: null,
  matchPathGlob: null,
  matchParentImage: null,
  matchCommandLine: null,
  matchUser: null,
  matchAdGroup: null,
  matchToolName: null,
  matchRiskTier: null,
  matchNegate: null,
  timeWindow: null,
};

const obs = (over: Partial<Observation> = {}): Observation => ({
  flowType: 'uac_intercept',
  subjectUsername: 'CORP\\alice',
  subjectAdGroups: ['Helpdesk', 'Domain Users'],
  targetExecutablePath: 'C:\\Program Files\\Acme\\setup.exe',
  targetExecutableHash: H1,
  targetExecutableSigner: 'Acme Corp',
  targetSignerThumbprint: T1,
  parentImage: 'C:\\Windows\\explorer.exe',
  commandLine: '"C:\\Program Files\\Acme\\setup.exe" /S /NoRestart',
  toolName: null,
  riskTier: null,
  ...over,
});

const tool = (over: Partial<Observation> = {}): Observation =>
  obs({
    flowType: 'ai_tool_action',
    targetExecutablePath: null,
    targetExecutableHash: null,
    targetExecutableSigner: null,
    targetSignerThumbprint: null,
    parentImage: null,
    commandLine: null,
    toolName: 'run_powershell',
    riskTier: 3,
    ...over,
  });

const matches = (
  criteria: Partial<RuleCriteria>,
  observation: Observation = obs(),
  at: Date = AT,
  groups: SignerGroupIndex | null = null,
) => ruleMatches({ ...EMPTY, ...criteria }, observation, at, groups);

/** Positive, negative, negated both ways, and negated against a missing value. */
function criterion(
  name: string,
  key: NonNullable<RuleCriteria['matchNegate']>[number],
  rule: Partial<RuleCriteria>,
  hit: Observation,
  miss: Observation,
  missing: Observation,
  groups: SignerGroupIndex | null = null,
) {
  describe(name, () => {
    it('matches the value and not another', () => {
      expect(matches(rule, hit, AT, groups)).toBe(true);
      expect(matches(rule, miss, AT, groups)).toBe(false);
    });
    it('does not match a missing value', () => {
      expect(matches(rule, missing, AT, groups)).toBe(false);
    });
    it('negated: inverts, but never matches a missing value', () => {
      const negated = { ...rule, matchNegate: [key] };
      expect(matches(negated, hit, AT, groups)).toBe(false);
      expect(matches(negated, miss, AT, groups)).toBe(true);
      expect(matches(negated, missing, AT, groups)).toBe(false);
    });
  });
}

describe('criteria', () => {
  criterion(
    'matchSigner (case-insensitive equality)',
    'signer',
    { matchSigner: 'ACME corp' },
    obs(),
    obs({ targetExecutableSigner: 'Acme Corporation' }),
    obs({ targetExecutableSigner: null }),
  );

  const groups: SignerGroupIndex = new Map([['g1', new Set(['acme corp', 'microsoft corporation'])]]);
  criterion(
    'matchSignerGroupId (membership, case-insensitive)',
    'signerGroup',
    { matchSignerGroupId: 'g1' },
    obs({ targetExecutableSigner: 'MICROSOFT Corporation' }),
    obs({ targetExecutableSigner: 'Evil Inc' }),
    obs({ targetExecutableSigner: '  ' }),
    groups,
  );

  criterion(
    'matchHash (case-insensitive hex)',
    'hash',
    { matchHash: H1.toUpperCase() },
    obs(),
    obs({ targetExecutableHash: H2 }),
    obs({ targetExecutableHash: null }),
  );

  criterion(
    'matchPathGlob',
    'pathGlob',
    { matchPathGlob: 'c:/program files/**/*.exe' },
    obs(),
    obs({ targetExecutablePath: 'C:\\Users\\bob\\Downloads\\setup.exe' }),
    obs({ targetExecutablePath: null }),
  );

  criterion(
    'matchParentImage as a file name',
    'parentImage',
    { matchParentImage: 'EXPLORER.EXE' },
    obs(),
    obs({ parentImage: 'C:\\Windows\\System32\\cmd.exe' }),
    obs({ parentImage: null }),
  );

  criterion(
    'matchCommandLine (case-insensitive substring)',
    'commandLine',
    { matchCommandLine: '/s /norestart' },
    obs(),
    obs({ commandLine: 'setup.exe /quiet' }),
    obs({ commandLine: null }),
  );

  criterion(
    'matchUser',
    'user',
    { matchUser: 'Alice' },
    obs(),
    obs({ subjectUsername: 'CORP\\bob' }),
    obs({ subjectUsername: null }),
  );

  criterion(
    'matchAdGroup (membership)',
    'adGroup',
    { matchAdGroup: 'helpdesk' },
    obs(),
    obs({ subjectAdGroups: ['Domain Users'] }),
    obs({ subjectAdGroups: [] }),
  );

  criterion(
    'matchToolName',
    'toolName',
    { matchToolName: 'Run_PowerShell' },
    tool(),
    tool({ toolName: 'read_file', riskTier: 0 }),
    tool({ toolName: null }),
  );

  criterion(
    'matchRiskTier (exact)',
    'riskTier',
    { matchRiskTier: 3 },
    tool(),
    tool({ riskTier: 2 }),
    tool({ riskTier: null }),
  );

  it('matchSignerThumbprint: case-insensitive hex equality, no match without a thumbprint', () => {
    expect(matches({ matchSignerThumbprint: T1.toUpperCase() })).toBe(true);
    expect(matches({ matchSignerThumbprint: H2 })).toBe(false);
    expect(matches({ matchSignerThumbprint: T1 }, obs({ targetSignerThumbprint: null }))).toBe(false);
  });

  it('matchParentImage with a separator compares the whole path, slashes and case folded', () => {
    expect(matches({ matchParentImage: 'c:/windows/EXPLORER.exe' })).toBe(true);
    expect(matches({ matchParentImage: 'D:\\Windows\\explorer.exe' })).toBe(false);
    expect(matches({ matchParentImage: 'explorer' })).toBe(false);
  });

  it('matchCommandLine keeps its spaces: a substring, not a token', () => {
    expect(matches({ matchCommandLine: ' /s' })).toBe(true);
    expect(matches({ matchCommandLine: '/s ' }, obs({ commandLine: 'x.exe /s' }))).toBe(false);
  });

  it('matchUser: a bare rule matches every account form; a domain rule needs that domain', () => {
    for (const subject of ['CORP\\Alice', 'alice@corp.example.com', 'ALICE']) {
      expect(matches({ matchUser: 'alice' }, obs({ subjectUsername: subject })), subject).toBe(true);
    }
    expect(matches({ matchUser: 'corp\\ALICE' }, obs({ subjectUsername: 'CORP\\alice' }))).toBe(true);
    expect(matches({ matchUser: 'CORP\\alice' }, obs({ subjectUsername: 'alice@corp' }))).toBe(true);
    expect(matches({ matchUser: 'CORP\\alice' }, obs({ subjectUsername: 'OTHER\\alice' }))).toBe(false);
    expect(matches({ matchUser: 'CORP\\alice' }, obs({ subjectUsername: 'alice' }))).toBe(false);
    expect(matches({ matchUser: 'alice@corp.example.com' }, obs({ subjectUsername: 'CORP\\alice' }))).toBe(
      false,
    );
    expect(matches({ matchUser: 'alice' }, obs({ subjectUsername: 'alicex' }))).toBe(false);
    expect(parseAccount(' Corp\\Bob ')).toEqual({ domain: 'corp', name: 'bob' });
    expect(parseAccount('bob@Corp.Example')).toEqual({ domain: 'corp.example', name: 'bob' });
  });

  it('every present criterion must match (AND)', () => {
    const rule = { matchSigner: 'Acme Corp', matchPathGlob: 'C:\\Program Files\\**', matchUser: 'alice' };
    expect(matches(rule)).toBe(true);
    expect(matches(rule, obs({ subjectUsername: 'bob' }))).toBe(false);
    expect(matches(rule, obs({ targetExecutablePath: 'D:\\setup.exe' }))).toBe(false);
  });

  it('a negated criterion beside a plain one: signed by Acme but not from Downloads', () => {
    const rule: Partial<RuleCriteria> = {
      matchSigner: 'Acme Corp',
      matchPathGlob: 'C:\\Users\\*\\Downloads\\**',
      matchNegate: ['pathGlob'],
    };
    expect(matches(rule)).toBe(true);
    expect(matches(rule, obs({ targetExecutablePath: 'C:\\Users\\bob\\Downloads\\setup.exe' }))).toBe(false);
    expect(matches(rule, obs({ targetExecutablePath: null }))).toBe(false);
  });

  it('a rule naming a signer group the index lacks cannot be evaluated', () => {
    expect(() => matches({ matchSignerGroupId: 'missing' }, obs(), AT, new Map())).toThrow();
    expect(() => matches({ matchSignerGroupId: 'missing' })).toThrow();
  });

  it('an unknown negation key cannot be evaluated', () => {
    expect(() => matches({ matchSigner: 'Acme Corp', matchNegate: ['bogus' as never] })).toThrow();
  });
});

describe('shapes', () => {
  it('an executable-shaped rule never matches an AI tool action', () => {
    expect(matches({ matchCommandLine: 'x' }, tool({ commandLine: 'x' }))).toBe(false);
    expect(matches({ matchSigner: 'Acme Corp' }, tool({ targetExecutableSigner: 'Acme Corp' }))).toBe(false);
  });

  it('a tool-shaped rule never matches a UAC prompt or just-in-time admin', () => {
    expect(matches({ matchRiskTier: 3 }, obs({ riskTier: 3 }))).toBe(false);
    expect(
      matches(
        { matchToolName: 'run_powershell' },
        obs({ flowType: 'tech_jit_admin', toolName: 'run_powershell' }),
      ),
    ).toBe(false);
    expect(matches({ matchRiskTier: 3 }, tool())).toBe(true);
  });

  it('a user or AD group rule matches every flow, except an ignore rule for tool actions', () => {
    expect(matches({ matchUser: 'alice' }, obs())).toBe(true);
    expect(matches({ matchUser: 'alice' }, obs({ flowType: 'tech_jit_admin' }))).toBe(true);
    expect(matches({ matchAdGroup: 'Helpdesk' }, tool())).toBe(true);
    expect(matches({ matchAdGroup: 'Helpdesk', verdict: 'ignore' }, tool())).toBe(false);
    expect(matches({ matchAdGroup: 'Helpdesk', verdict: 'ignore' }, obs())).toBe(true);
  });

  it('a rule with only a time window (or nothing) matches nothing', () => {
    expect(matches({ timeWindow: { start: '00:00', end: '00:00' } })).toBe(false);
    expect(matches({})).toBe(false);
  });
});

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

describe('decideByRules over stored rules', () => {
  let dir: string;
  let db: Db;
  let orgId: string;
  let otherOrgId: string;
  let siteA: string;
  let siteB: string;
  let order = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-pam-match-'));
    db = openDatabase(join(dir, 'g.db'));
    migrate(db, loadMigrations());
    const at = new Date().toISOString();
    const partnerId = randomUUID();
    db.prepare(
      "INSERT INTO partners (id, name, slug, created_at, updated_at) VALUES (?, 'P', 'p', ?, ?)",
    ).run(partnerId, at, at);
    orgId = randomUUID();
    otherOrgId = randomUUID();
    for (const [id, slug] of [
      [orgId, 'a'],
      [otherOrgId, 'b'],
    ] as const) {
      db.prepare(
        "INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, ?, 'O', ?, ?, ?)",
      ).run(id, partnerId, slug, at, at);
    }
    siteA = randomUUID();
    siteB = randomUUID();
    for (const id of [siteA, siteB])
      db.prepare("INSERT INTO sites (id, org_id, name, created_at, updated_at) VALUES (?, ?, 'S', ?, ?)").run(
        id,
        orgId,
        at,
        at,
      );
  });

  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function insert(fields: Partial<RuleFields> & { name: string }, org = orgId, id = randomUUID()): string {
    const base: RuleFields = {
      ...EMPTY,
      siteId: null,
      verdict: 'auto_approve',
      suspendedVerdict: null,
      priority: 100,
      enabled: true,
      approvalDurationMinutes: null,
      reapprovedAt: null,
      reapprovedByUserId: null,
      ...fields,
    };
    // created_at increases with every insert, so ties on priority fall back to age.
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, order++)).toISOString();
    policyStore(db).insertRule({ id, orgId: org, createdBy: 'test', at, fields: base });
    return id;
  }

  const clear = () => db.prepare('DELETE FROM pam_rules').run();
  const decide = (site: string | null = null, observation = obs(), org = orgId) =>
    decideByRules(db, org, site, observation, AT);

  it('no rules: null', () => {
    clear();
    expect(decide()).toBeNull();
  });

  it('lower priority first; equal priority by age, then id', () => {
    clear();
    insert({ name: 'late low', priority: 50, matchSigner: 'Acme Corp', verdict: 'auto_deny' });
    insert({
      name: 'early high',
      priority: 10,
      matchUser: 'alice',
      verdict: 'require_approval',
      approvalDurationMinutes: 30,
    });
    expect(decide()).toMatchObject({
      name: 'early high',
      verdict: 'require_approval',
      approvalDurationMinutes: 30,
    });
    clear();
    insert({ name: 'older', priority: 5, matchSigner: 'Acme Corp', verdict: 'auto_deny' });
    insert({ name: 'newer', priority: 5, matchSigner: 'Acme Corp', verdict: 'auto_approve' });
    expect(decide()?.name).toBe('older');
  });

  it('the first matching rule wins; non-matching rules are skipped', () => {
    clear();
    insert({ name: 'other signer', priority: 1, matchSigner: 'Evil Inc', verdict: 'auto_approve' });
    const id = insert({ name: 'hash', priority: 2, matchHash: H1, verdict: 'auto_deny' });
    expect(decide()).toEqual({ id, name: 'hash', verdict: 'auto_deny', approvalDurationMinutes: null });
  });

  it('site rules apply to their site only; organization-wide rules to every site', () => {
    clear();
    insert({ name: 'site A', priority: 1, siteId: siteA, matchSigner: 'Acme Corp', verdict: 'auto_approve' });
    insert({ name: 'org-wide', priority: 2, matchSigner: 'Acme Corp', verdict: 'require_approval' });
    expect(decide(siteA)?.name).toBe('site A');
    expect(decide(siteB)?.name).toBe('org-wide');
    expect(decide(null)?.name).toBe('org-wide');
  });

  it('disabled rules and other organizations are ignored', () => {
    clear();
    insert({ name: 'disabled', priority: 1, enabled: false, matchSigner: 'Acme Corp' });
    insert({ name: 'other org', priority: 1, matchSigner: 'Acme Corp' }, otherOrgId);
    expect(decide()).toBeNull();
    expect(decide(null, obs(), otherOrgId)?.name).toBe('other org');
  });

  it('signer groups are loaded from the organization', () => {
    clear();
    const groupId = randomUUID();
    const at = new Date().toISOString();
    policyStore(db).insertGroup({
      id: groupId,
      org_id: orgId,
      name: 'Vendors',
      description: null,
      signers: JSON.stringify(['ACME CORP']),
      created_at: at,
      updated_at: at,
    });
    insert({ name: 'vendors', matchSignerGroupId: groupId });
    expect(decide()?.name).toBe('vendors');
    expect(decide(null, obs({ targetExecutableSigner: 'Evil Inc' }))).toBeNull();
    clear();
    db.prepare('DELETE FROM pam_signer_groups').run();
  });

  it('throws on a rule it cannot evaluate: unknown time zone, corrupt JSON', () => {
    clear();
    const id = insert({ name: 'tz', matchSigner: 'Acme Corp', timeWindow: { start: '09:00', end: '17:00' } });
    db.prepare('UPDATE pam_rules SET time_window = ? WHERE id = ?').run(
      JSON.stringify({ start: '09:00', end: '17:00', timezone: 'Nowhere/Land' }),
      id,
    );
    expect(() => decide()).toThrow();
    clear();
    const corrupt = insert({ name: 'corrupt', matchSigner: 'Acme Corp', matchNegate: ['signer'] });
    // json_valid() guards the column, so corruption here is a well-formed value of the wrong kind.
    db.prepare('UPDATE pam_rules SET match_negate = ? WHERE id = ?').run('["nope"]', corrupt);
    expect(() => decide()).toThrow();
  });

  it('a broken rule after the winning one is never reached', () => {
    clear();
    insert({ name: 'winner', priority: 1, matchSigner: 'Acme Corp' });
    const broken = insert({ name: 'broken', priority: 2, matchSigner: 'Acme Corp' });
    db.prepare('UPDATE pam_rules SET match_negate = ? WHERE id = ?').run('["nope"]', broken);
    expect(decide()?.name).toBe('winner');
  });

  it('tool rules decide tool actions by the tier the server recorded', () => {
    clear();
    insert({ name: 'deny tier 4', priority: 1, matchRiskTier: 4, verdict: 'auto_deny' });
    insert({ name: 'approve reads', priority: 2, matchToolName: 'read_file', verdict: 'auto_approve' });
    expect(decide(null, tool({ riskTier: 4 }))?.name).toBe('deny tier 4');
    expect(decide(null, tool({ toolName: 'read_file', riskTier: 0 }))?.name).toBe('approve reads');
    expect(decide(null, obs())).toBeNull();
  });

  it('stale tiers: reachability and the one start-up warning', () => {
    clear();
    expect(tierReachability({ matchToolName: 'read_file', matchRiskTier: 3, matchNegate: null })).toEqual({
      stale: true,
      validTiers: [0],
    });
    expect(
      tierReachability({ matchToolName: 'read_file', matchRiskTier: 0, matchNegate: ['riskTier'] }).stale,
    ).toBe(true);
    expect(
      tierReachability({ matchToolName: 'write_file', matchRiskTier: 1, matchNegate: ['riskTier'] }).stale,
    ).toBe(false);
    expect(
      tierReachability({ matchToolName: 'read_file', matchRiskTier: 3, matchNegate: ['toolName'] }).stale,
    ).toBe(false);
    expect(tierReachability({ matchToolName: 'future_tool', matchRiskTier: 3, matchNegate: null })).toEqual({
      stale: false,
      validTiers: null,
    });

    const warnings: Array<{ obj: unknown; msg: string }> = [];
    const log = { warn: (obj: unknown, msg: string) => warnings.push({ obj, msg }) };
    const ctx = { db, log: log as never };
    warnStaleTierRules(ctx);
    expect(warnings).toEqual([]);

    const stale = insert({ name: 'pinned read', matchToolName: 'read_file', matchRiskTier: 2 });
    insert({ name: 'disabled pinned', enabled: false, matchToolName: 'read_file', matchRiskTier: 2 });
    insert({ name: 'fine', matchToolName: 'run_powershell', matchRiskTier: 3 });
    insert({ name: 'unknown tool', matchToolName: 'future_tool', matchRiskTier: 1 });
    expect(staleTierRules(ctx).map((r) => r.name)).toEqual(['pinned read']);
    warnStaleTierRules(ctx);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('pinned read');
    expect(warnings[0]!.msg).toContain(stale);
    expect(warnings[0]!.obj).toEqual({
      staleTierRules: [
        { ruleId: stale, name: 'pinned read', orgId, toolName: 'read_file', riskTier: 2, validTiers: [0] },
      ],
    });
  });
});
