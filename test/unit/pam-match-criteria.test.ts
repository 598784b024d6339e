import { describe, expect, it } from 'vitest';
import type { Observation } from '../../server/modules/pam/observation';
import {
  parseAccount,
  type RuleCriteria,
  type SignerGroupIndex,
} from '../../server/modules/pam/policy/match';
import { H1, H2, T1, AT, obs, tool, matches } from '../support/pam-match-world';

// The PAM rule matcher: every criterion positive, negative, negated and negated against a missing value, and
// the rule shapes (executable or tool action).

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
