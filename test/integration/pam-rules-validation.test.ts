import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  server,
  ids,
  tok,
  H,
  call,
  create,
  createOk,
  expectError,
  NO_CRITERION,
  MIXED,
  usePamRulesWorld,
} from '../support/pam-rules-world';

// /pam/rules: every rule of spec 2's "Rule validation" paragraph, each refused with its message.

usePamRulesWorld();

describe('rule validation', () => {
  const cases: Array<[string, Record<string, unknown>, string | RegExp, string?]> = [
    ['no criterion', {}, NO_CRITERION, 'VALIDATION_ERROR'],
    ['a time window alone', { timeWindow: { start: '09:00', end: '17:00' } }, NO_CRITERION],
    ['empty strings are no criteria', { matchSigner: '  ', matchHash: '' }, NO_CRITERION],
    ['executable and tool criteria', { matchSigner: 'Acme', matchToolName: 'read_file' }, MIXED],
    ['hash and risk tier', { matchHash: H('a'), matchRiskTier: 1 }, MIXED],
    [
      'ignore for a tool rule',
      { matchToolName: 'read_file', verdict: 'ignore' },
      'The ignore verdict is not valid for tool-action rules',
    ],
    [
      'signer with signer group',
      { matchSigner: 'Acme', matchSignerGroupId: randomUUID() },
      'matchSigner and matchSignerGroupId are exclusive',
    ],
    [
      'signer group with thumbprint',
      { matchSignerGroupId: randomUUID(), matchSignerThumbprint: H('c') },
      'matchSignerGroupId and matchSignerThumbprint are exclusive',
    ],
    [
      'unknown signer group',
      { matchSignerGroupId: randomUUID() },
      'matchSignerGroupId: signer group not found in this organization',
    ],
    ['short hash', { matchHash: 'abc' }, 'matchHash: must be a SHA-256 hex digest (64 hex characters)'],
    [
      'non-hex thumbprint',
      { matchSignerThumbprint: 'z'.repeat(64) },
      /^matchSignerThumbprint: must be a SHA-256/,
    ],
    [
      'negation of an absent criterion',
      { matchSigner: 'Acme', matchNegate: ['hash'] },
      'matchNegate: hash is negated but the rule has no matchHash',
    ],
    ['unknown negation key', { matchSigner: 'Acme', matchNegate: ['thumbprint'] }, /^matchNegate\.0: /],
    [
      'repeated negation key',
      { matchSigner: 'Acme', matchNegate: ['signer', 'signer'] },
      'matchNegate: must not repeat a criterion',
    ],
    [
      'time HH:MM',
      { matchSigner: 'Acme', timeWindow: { start: '9:00', end: '17:00' } },
      'timeWindow.start: must be HH:MM (24 hour)',
    ],
    [
      'time 24:00',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '24:00' } },
      'timeWindow.end: must be HH:MM (24 hour)',
    ],
    [
      'day 7',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [7] } },
      'timeWindow.days.0: must be 0-6',
    ],
    [
      'repeated day',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [1, 1] } },
      'timeWindow.days: must not repeat a day',
    ],
    [
      'no day',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', days: [] } },
      'timeWindow.days: must list at least one day',
    ],
    [
      'unknown time zone',
      { matchSigner: 'Acme', timeWindow: { start: '09:00', end: '17:00', timezone: 'Mars/Base' } },
      'timeWindow.timezone: must be an IANA time zone',
    ],
    [
      'duration 0',
      { matchSigner: 'Acme', approvalDurationMinutes: 0 },
      'approvalDurationMinutes: must be 1-1440',
    ],
    [
      'duration 1441',
      { matchSigner: 'Acme', approvalDurationMinutes: 1441 },
      'approvalDurationMinutes: must be 1-1440',
    ],
    ['risk tier 5', { matchRiskTier: 5 }, 'matchRiskTier: must be 0-4'],
    ['unknown field', { matchSigner: 'Acme', matchHsh: H('a') }, 'Unrecognized key: "matchHsh"'],
  ];
  for (const [name, body, error, code] of cases) {
    it(name, async () => {
      expectError(await create({ name: 'x', verdict: 'auto_approve', ...body }), 400, error, code);
    });
  }

  it('name 1-255 and a known verdict are required', async () => {
    expectError(
      await create({ name: ' ', verdict: 'auto_approve', matchSigner: 'A' }),
      400,
      'name: is required',
    );
    expectError(
      await create({ name: 'x'.repeat(256), verdict: 'auto_approve', matchSigner: 'A' }),
      400,
      'name: must be at most 255 characters',
    );
    expectError(await create({ verdict: 'auto_approve', matchSigner: 'A' }), 400, 'name: is required');
    expectError(
      await create({ name: 'x', verdict: 'allow', matchSigner: 'A' }),
      400,
      /^verdict: must be one of/,
    );
  });

  it('pam_rule_risk_tier_unreachable names the valid tiers; nothing is stored', async () => {
    const before = (server.context.db.prepare('SELECT count(*) AS n FROM pam_rules').get() as { n: number })
      .n;
    const res = await create({
      name: 'x',
      verdict: 'auto_approve',
      matchToolName: 'read_file',
      matchRiskTier: 3,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Risk tier 3 is unreachable for tool read_file; valid tiers: 0',
      code: 'pam_rule_risk_tier_unreachable',
      validTiers: [0],
    });
    const negated = await create({
      name: 'x',
      verdict: 'auto_approve',
      matchToolName: 'restart_service',
      matchRiskTier: 2,
      matchNegate: ['riskTier'],
    });
    expect(negated.body).toMatchObject({ code: 'pam_rule_risk_tier_unreachable', validTiers: [2] });
    expect((server.context.db.prepare('SELECT count(*) AS n FROM pam_rules').get() as { n: number }).n).toBe(
      before,
    );
  });

  it('the signer group must belong to the rule organization', async () => {
    const group = await call('POST', '/pam/signer-groups', tok.orgAdminB, {
      name: 'B vendors',
      signers: ['Acme'],
    });
    expect(group.status).toBe(201);
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSignerGroupId: group.body.signerGroup.id }),
      400,
      'matchSignerGroupId: signer group not found in this organization',
    );
    const own = await call('POST', '/pam/signer-groups', tok.orgAdmin, {
      name: 'A vendors',
      signers: ['Acme'],
    });
    expect(
      await createOk({ matchSignerGroupId: own.body.signerGroup.id, matchNegate: ['signerGroup'] }),
    ).toMatchObject({
      matchSignerGroupId: own.body.signerGroup.id,
    });
  });

  it('siteId must be a site of the organization the caller may reach', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: randomUUID() }),
      404,
      'Site not found',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: ids.siteB1 }),
      403,
      'Access to this site denied',
    );
    expectError(
      await create(
        { name: 'x', verdict: 'auto_approve', matchSigner: 'A', siteId: ids.siteB1, orgId: ids.a1 },
        tok.system,
      ),
      400,
      "siteId: must be a site of the rule's organization",
    );
  });
});
