import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { decideByRules } from '../../server/modules/pam/policy/match';
import { policyStore, type RuleFields } from '../../server/modules/pam/policy/store';
import {
  staleTierRules,
  tierReachability,
  warnStaleTierRules,
} from '../../server/modules/pam/policy/stale-tiers';
import { H1, AT, EMPTY, obs, tool } from '../support/pam-match-world';

// The PAM decision order over real SQLite rows: priority, age, site vs organization-wide, disabled and broken
// rules.

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
