import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_COMMANDS } from '../../agent-sim/commands';
import type { AgentHandle, CommandOutcome } from '../../agent-sim/handle';
import { EventLogStore } from '../../agent-sim/eventlog';
import { ElevationRaiseError, Fleet, formatStats } from '../../agent-sim/fleet';
import { agentIdentity, type AgentIdentity } from '../../agent-sim/identity';
import { AgentElevation, elevationOf } from '../../agent-sim/pam';
import { ELEVATION_KINDS, type ElevationKind } from '../../agent-sim/pam-catalog';
import { Rng } from '../../agent-sim/random';
import { getScenario, scenarioNames } from '../../agent-sim/scenarios';
import type { HttpAnswer } from '../../agent-sim/transport';
import { ingestBody } from '../../server/modules/pam/schemas';
import { validTiersOf } from '../../server/modules/pam/tools';

// The agent side of privileged access (issue 5): the request catalog (deterministic per seed, valid against the
// server's ingest body), the grant table behind `actuate_elevation` / `revoke_elevation` with its expiry timers,
// and how a report's answer is handled. No server here: the handle's `request` is scripted.

const NOW = new Date('2026-03-02T10:00:00.000Z');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Fake {
  handle: AgentHandle;
  logs: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
  sent: Array<{ method: string; path: string; body: unknown }>;
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body, headers: new Headers(headers) };
}

function fakeAgent(
  seed = 3,
  index = 0,
  reply: (body: unknown) => HttpAnswer | Promise<HttpAnswer> = () =>
    answer(201, { id: 'r-1', status: 'pending', expiresAt: null }),
): Fake {
  const identity = agentIdentity(seed, index);
  const logs: Fake['logs'] = [];
  const sent: Fake['sent'] = [];
  const handle: AgentHandle = {
    index,
    seed,
    identity,
    agentId: 'agent-1',
    deviceId: 'device-1',
    agentVersion: '1.0.0',
    eventLogs: new EventLogStore(identity, seed, index, NOW.getTime()),
    rng: (purpose) => Rng.of(seed, index, purpose),
    log: (level, _component, message, fields) => logs.push({ level, message, fields }),
    request: async (method, path, body) => {
      sent.push({ method, path, body });
      return reply(body);
    },
    devUpdate: () => Promise.reject(new Error('not in this test')),
    uninstall: () => undefined,
  };
  return { handle, logs, sent };
}

/** The first agent index of `seed` whose machine matches. */
function indexWhere(seed: number, match: (id: AgentIdentity) => boolean): number {
  for (let i = 0; i < 500; i++) if (match(agentIdentity(seed, i))) return i;
  throw new Error('no such machine');
}

const run = (type: string, payload: Record<string, unknown>, handle: AgentHandle) =>
  Promise.resolve(BUILT_IN_COMMANDS[type]!(payload, handle)) as Promise<CommandOutcome>;

afterEach(() => {
  vi.useRealTimers();
});

describe('elevation request catalog', () => {
  it('is deterministic per seed and agent: the same sequence of requests, another seed another one', () => {
    const sequence = (seed: number, index: number) => {
      const pam = new AgentElevation(fakeAgent(seed, index).handle);
      return Array.from({ length: 40 }, () => pam.nextRequest(undefined, NOW));
    };
    expect(sequence(7, 2)).toEqual(sequence(7, 2));
    expect(sequence(7, 2)).not.toEqual(sequence(8, 2));
    expect(sequence(7, 2)).not.toEqual(sequence(7, 3));
    // The mix holds every kind over a few hundred requests.
    const pam = new AgentElevation(fakeAgent(7, 2).handle);
    const kinds = new Set(Array.from({ length: 300 }, () => pam.nextRequest(undefined, NOW).kind));
    expect([...kinds].sort()).toEqual([...ELEVATION_KINDS].sort());
  });

  it('every kind on every OS is a valid ingest body with the fields its flow needs', () => {
    const seed = 5;
    const machines = [
      indexWhere(seed, (id) => id.osType === 'windows' && id.deviceRole === 'workstation'),
      indexWhere(seed, (id) => id.osType === 'windows' && id.deviceRole === 'server'),
      indexWhere(seed, (id) => id.osType === 'macos'),
      indexWhere(seed, (id) => id.osType === 'linux'),
    ];
    for (const index of machines) {
      const pam = new AgentElevation(fakeAgent(seed, index).handle);
      for (const kind of ELEVATION_KINDS) {
        for (let i = 0; i < 12; i++) {
          const { kind: got, body } = pam.nextRequest(kind, NOW);
          expect(got).toBe(kind);
          const parsed = ingestBody.safeParse(body);
          expect(parsed.success, `${kind}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
          expect(JSON.stringify(body).length).toBeLessThan(32 * 1024);
          expect(body.observed_at).toBe(NOW.toISOString());
          expect(body.target_executable_hash).toMatch(/^[0-9a-f]{64}$/);
          expect(body.pid).toBeGreaterThan(0);
          expect(body.subject_ad_groups!.length).toBeGreaterThan(0);
          checkKind(kind, body, pam);
        }
      }
    }
  });

  function checkKind(
    kind: ElevationKind,
    body: ReturnType<AgentElevation['nextRequest']>['body'],
    pam: AgentElevation,
  ) {
    const { profile } = pam;
    const signed = body.target_executable_signer !== undefined;
    if (signed) expect(body.target_signer_thumbprint).toBe(sha256(body.target_executable_signer!));
    else expect(body.target_signer_thumbprint).toBeUndefined();
    switch (kind) {
      case 'signed_installer':
      case 'unsigned_tool':
        expect(body.flow_type).toBe('uac_intercept');
        expect(signed).toBe(kind === 'signed_installer');
        expect(body.subject_username).toBe(profile.user);
        expect(body.target_executable_path).toContain(`${profile.account}`);
        expect(body.target_executable_path).toMatch(/[\\/]Downloads[\\/]/);
        if (profile.osType === 'windows') expect(body.parent_image).toBe('C:\\Windows\\explorer.exe');
        else expect(body.command_line).toMatch(/^\/usr\/bin\/sudo /);
        if (profile.osType === 'macos' && signed) {
          expect(body.target_executable_signer).toMatch(/^Developer ID Application: /);
          expect(body.command_line).toContain('/usr/sbin/installer -pkg ');
        }
        break;
      case 'admin_console':
        expect(body.flow_type).toBe('tech_jit_admin');
        expect(profile.technicians).toContain(body.subject_username);
        expect(body.subject_username).toMatch(/-admin$/);
        if (profile.osType === 'windows') {
          expect(body.target_executable_path).toBe('C:\\Windows\\System32\\mmc.exe');
          expect(body.command_line).toMatch(/mmc\.exe" \w+\.msc$/);
          expect(body.parent_image).toMatch(/powershell\.exe$/);
          expect(body.subject_ad_groups).toContain(`${pam.profile.user.split('\\')[0]}\\IT-Staff`);
        } else expect(body.target_executable_path).toBe('/usr/bin/sudo');
        break;
      case 'ai_tool':
      case 'ai_tool_critical': {
        expect(body.flow_type).toBe('ai_tool_action');
        const tiers = validTiersOf(body.tool_name!);
        expect(tiers, `${body.tool_name} is a tool the server knows`).not.toBeNull();
        expect(tiers).toContain(body.risk_tier);
        expect(body.risk_tier! === 4).toBe(kind === 'ai_tool_critical');
        expect(body.action_digest).toMatch(/^[0-9a-f]{64}$/);
        expect(body.command_line).toBeTruthy();
        expect(body.action_timeout_seconds).toBeGreaterThan(0);
        break;
      }
    }
  }

  it('names the machine’s user: the Zoom installer from a Windows user’s Downloads, signed by Zoom', () => {
    const index = indexWhere(5, (id) => id.osType === 'windows' && id.deviceRole === 'workstation');
    const { handle } = fakeAgent(5, index);
    const pam = new AgentElevation(handle);
    const zoom = Array.from({ length: 60 }, () => pam.nextRequest('signed_installer', NOW).body).find((b) =>
      b.target_executable_path?.endsWith('ZoomInstallerFull.exe'),
    )!;
    const { domain, primaryUser } = handle.identity;
    expect(zoom).toMatchObject({
      flow_type: 'uac_intercept',
      subject_username: `${domain}\\${primaryUser}`,
      target_executable_path: `C:\\Users\\${primaryUser}\\Downloads\\ZoomInstallerFull.exe`,
      target_executable_signer: 'Zoom Video Communications, Inc.',
      // Stable: derived from the file name, the same on every machine.
      target_executable_hash: sha256('ZoomInstallerFull.exe'),
      parent_image: 'C:\\Windows\\explorer.exe',
    });
    expect(zoom.command_line).toMatch(/ZoomInstallerFull\.exe" \/silent/);
    expect(zoom.subject_ad_groups).toContain(`${domain}\\Domain Users`);
  });
});

describe('actuate_elevation and revoke_elevation', () => {
  const actuate = (handle: AgentHandle, overrides: Record<string, unknown> = {}) =>
    run(
      'actuate_elevation',
      {
        elevationRequestId: 'req-1',
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        targetPath: 'C:\\Users\\a\\Downloads\\ZoomInstallerFull.exe',
        commandLine: '"C:\\Users\\a\\Downloads\\ZoomInstallerFull.exe" /silent',
        subjectUsername: 'CONTOSO\\alex.morgan',
        ...overrides,
      },
      handle,
    );

  it('grants a time-boxed membership and removes it by itself when it expires', async () => {
    vi.useFakeTimers({ now: NOW });
    const { handle, logs } = fakeAgent();
    const outcome = await actuate(handle);
    expect(outcome).toEqual({
      status: 'completed',
      result: { enforcementStatus: 'active', grantedAt: NOW.toISOString() },
    });
    const pam = elevationOf(handle);
    expect(pam.grants()).toEqual([
      {
        elevationRequestId: 'req-1',
        subject: 'CONTOSO\\alex.morgan',
        targetPath: 'C:\\Users\\a\\Downloads\\ZoomInstallerFull.exe',
        commandLine: '"C:\\Users\\a\\Downloads\\ZoomInstallerFull.exe" /silent',
        grantedAt: NOW.toISOString(),
        expiresAt: new Date(NOW.getTime() + 60_000).toISOString(),
      },
    ]);
    expect(pam.stats).toMatchObject({ actuated: 1, grantsActive: 1 });
    expect(logs.at(-1)?.message).toMatch(
      /^elevation granted: CONTOSO\\alex\.morgan added to local \w+ until /,
    );

    vi.advanceTimersByTime(59_000);
    expect(pam.grant('req-1')).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(pam.grant('req-1')).toBeNull();
    expect(pam.stats).toMatchObject({ grantsActive: 0, expiredLocally: 1 });
    expect(logs.at(-1)).toMatchObject({
      level: 'info',
      message: expect.stringMatching(/^elevation expired: CONTOSO\\alex\.morgan removed from local /),
      fields: { elevationRequestId: 'req-1' },
    });
    expect(vi.getTimerCount()).toBe(0);

    // The server's cleanup after the expiry finds nothing left: still a completed cleanup.
    expect(await run('revoke_elevation', { elevationRequestId: 'req-1', reason: 'expired' }, handle)).toEqual(
      {
        status: 'completed',
        result: { enforcementStatus: 'cleaned_up' },
      },
    );
    expect(logs.at(-1)?.message).toBe('revoke_elevation: no grant for req-1 (already removed)');
  });

  it('revoke removes a live grant and its timer', async () => {
    vi.useFakeTimers({ now: NOW });
    const { handle, logs } = fakeAgent();
    await actuate(handle, { elevationRequestId: 'req-2' });
    expect(vi.getTimerCount()).toBe(1);
    const outcome = await run('revoke_elevation', { elevationRequestId: 'req-2', reason: 'revoked' }, handle);
    expect(outcome).toEqual({ status: 'completed', result: { enforcementStatus: 'cleaned_up' } });
    expect(elevationOf(handle).grants()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(logs.at(-1)?.message).toMatch(/^elevation revoked: CONTOSO\\alex\.morgan removed from local /);
    expect(elevationOf(handle).stats).toMatchObject({ cleanedUp: 1, grantsActive: 0, expiredLocally: 0 });
  });

  it('revoke of a grant it never had is a completed cleanup; the DESIGN payload without a reason works', async () => {
    const { handle } = fakeAgent();
    expect(await run('revoke_elevation', { elevationRequestId: 'never-granted' }, handle)).toEqual({
      status: 'completed',
      result: { enforcementStatus: 'cleaned_up' },
    });
    expect(await run('revoke_elevation', {}, handle)).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^Invalid payload: elevationRequestId: /),
    });
  });

  it('refuses invalid payloads and windows that already ended, granting nothing', async () => {
    vi.useFakeTimers({ now: NOW });
    const { handle } = fakeAgent();
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ elevationRequestId: undefined }, /^Invalid payload: elevationRequestId: /],
      [{ elevationRequestId: '' }, /^Invalid payload: elevationRequestId: /],
      [{ expiresAt: 'tomorrow' }, /^Invalid payload: expiresAt: /],
      [{ expiresAt: undefined }, /^Invalid payload: expiresAt: /],
      [{ subjectUsername: null }, /^Invalid payload: subjectUsername: /],
      [{ subjectUsername: '  ' }, /^Invalid payload: subjectUsername: /],
      [{ targetPath: 42 }, /^Invalid payload: targetPath: /],
      [{ expiresAt: new Date(NOW.getTime() - 1000).toISOString() }, /^Elevation already expired at /],
      [{ expiresAt: NOW.toISOString() }, /^Elevation already expired at /],
    ];
    for (const [overrides, error] of refusals) {
      const outcome = await actuate(handle, overrides);
      expect(outcome.status, JSON.stringify(overrides)).toBe('failed');
      expect(outcome.error).toMatch(error);
    }
    expect(elevationOf(handle).grants()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(elevationOf(handle).stats).toMatchObject({ actuated: 0, actuationsFailed: refusals.length });
  });

  it('a repeated actuation keeps the grant and moves its end; reset drops every grant and timer', async () => {
    vi.useFakeTimers({ now: NOW });
    const { handle } = fakeAgent();
    const first = await actuate(handle, { elevationRequestId: 'req-3' });
    vi.advanceTimersByTime(30_000);
    const later = new Date(Date.now() + 120_000).toISOString();
    const again = await actuate(handle, { elevationRequestId: 'req-3', expiresAt: later });
    expect(again.result).toEqual(first.result);
    const pam = elevationOf(handle);
    expect(pam.grants()).toHaveLength(1);
    expect(pam.grant('req-3')?.expiresAt).toBe(later);
    expect(pam.stats.actuated).toBe(1);
    vi.advanceTimersByTime(60_000); // past the first end, before the second
    expect(pam.grant('req-3')).not.toBeNull();

    await actuate(handle, { elevationRequestId: 'req-4' });
    expect(vi.getTimerCount()).toBe(2);
    pam.reset();
    expect(pam.grants()).toEqual([]);
    expect(pam.stats.grantsActive).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('reporting elevation requests', () => {
  it('posts the request to its own endpoint and records the answer', async () => {
    const replies = [
      answer(201, { id: 'a', status: 'pending', expiresAt: null }),
      answer(201, { id: 'b', status: 'auto_approved', expiresAt: '2026-03-02T10:15:00.000Z' }),
      answer(201, { id: 'c', status: 'denied', expiresAt: null }),
      answer(200, { id: null, status: 'ignored' }),
    ];
    const { handle, sent } = fakeAgent(3, 0, () => replies.shift()!);
    const pam = elevationOf(handle);
    expect(await pam.raise('signed_installer')).toEqual({
      ok: true,
      kind: 'signed_installer',
      id: 'a',
      status: 'pending',
      expiresAt: null,
    });
    expect(await pam.raise('ai_tool')).toMatchObject({
      ok: true,
      status: 'auto_approved',
      expiresAt: '2026-03-02T10:15:00.000Z',
    });
    expect(await pam.raise('unsigned_tool')).toMatchObject({ ok: true, id: 'c', status: 'denied' });
    expect(await pam.raise()).toMatchObject({ ok: true, id: null, status: 'ignored' });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(Array(4).fill('POST /elevation-requests'));
    expect((sent[0]!.body as { flow_type: string }).flow_type).toBe('uac_intercept');
    expect((sent[1]!.body as { flow_type: string }).flow_type).toBe('ai_tool_action');
    expect(pam.requests().map((r) => [r.id, r.kind, r.status])).toEqual([
      ['a', 'signed_installer', 'pending'],
      ['b', 'ai_tool', 'auto_approved'],
      ['c', 'unsigned_tool', 'denied'],
      [null, pam.requests()[3]!.kind, 'ignored'],
    ]);
    expect(pam.stats).toMatchObject({ raised: 4, pending: 1, autoApproved: 1, denied: 1, ignored: 1 });
  });

  it('backs off on 429, drops what the server refuses, survives a network failure', async () => {
    vi.useFakeTimers({ now: NOW });
    const replies: Array<() => HttpAnswer> = [
      () => answer(429, { error: 'Too many elevation requests from this device' }, { 'retry-after': '2' }),
      () => answer(413, { error: 'Request body too large' }),
      () => {
        throw new Error('connect ECONNREFUSED');
      },
      () => answer(201, { id: 'z', status: 'pending' }),
    ];
    const { handle, logs } = fakeAgent(3, 0, () => replies.shift()!());
    const pam = elevationOf(handle);
    expect(await pam.raise('admin_console')).toEqual({
      ok: false,
      kind: 'admin_console',
      reason: 'rate_limited',
      httpStatus: 429,
      error: 'Too many elevation requests from this device',
      retryAfterMs: 2000,
    });
    expect(pam.paused).toBe(true);
    // While paused the scenario does not report (the schedule is not even consulted).
    expect(pam.maybeRaise(1)).toBeNull();
    expect(await pam.raise('signed_installer')).toMatchObject({
      ok: false,
      reason: 'rejected',
      httpStatus: 413,
    });
    expect(await pam.raise('signed_installer')).toMatchObject({
      ok: false,
      reason: 'unreachable',
      httpStatus: null,
      error: 'connect ECONNREFUSED',
    });
    vi.advanceTimersByTime(2_000);
    expect(pam.paused).toBe(false);
    await expect(pam.maybeRaise(1)).resolves.toMatchObject({ ok: true, id: 'z' });
    expect(pam.stats).toMatchObject({ raised: 4, rateLimited: 1, rejected: 1, failed: 1, pending: 1 });
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'elevation request not reported: Too many elevation requests from this device',
      'elevation request not reported: Request body too large',
      'elevation request not reported: connect ECONNREFUSED',
    ]);
    expect(pam.requests().map((r) => r.status)).toEqual([
      'rate_limited',
      'rejected',
      'unreachable',
      'pending',
    ]);
  });
});

describe('pam scenarios and the fleet', () => {
  it('pam reports about one heartbeat in ten, pam-load every heartbeat; both keep steady’s base', async () => {
    expect(scenarioNames()).toEqual(expect.arrayContaining(['pam', 'pam-load']));
    const steady = getScenario('steady')!;
    const counts: Record<string, number> = {};
    for (const name of ['pam', 'pam-load']) {
      const scenario = getScenario(name)!;
      expect(scenario.diagnostics).toEqual(steady.diagnostics);
      expect(scenario.network).toEqual(steady.network);
      const { handle, sent } = fakeAgent(9, 1);
      for (let beat = 0; beat < 500; beat++) await scenario.hooks!.onHeartbeat!(handle);
      await vi.waitFor(() => expect(elevationOf(handle).stats.pending).toBe(sent.length));
      counts[name] = sent.length;
    }
    expect(counts['pam-load']).toBe(500);
    expect(counts.pam).toBeGreaterThan(25);
    expect(counts.pam).toBeLessThan(80);
  });

  it('an agent that is not enrolled does not report', async () => {
    const { handle, sent } = fakeAgent();
    const unenrolled: AgentHandle = { ...handle, agentId: null };
    await getScenario('pam-load')!.hooks!.onHeartbeat!(unenrolled);
    expect(sent).toHaveLength(0);
  });

  it('raiseElevation needs a running agent; fleet stats carry the elevation counters', async () => {
    const fleet = new Fleet({ server: 'http://127.0.0.1:9', count: 2, seed: 4 });
    await expect(fleet.raiseElevation({ kind: 'signed_installer' })).rejects.toMatchObject({
      name: 'ElevationRaiseError',
      reason: 'no_agent',
      message: 'no simulated agent is connected',
    });
    await expect(fleet.raiseElevation({ agentIndex: 7 })).rejects.toBeInstanceOf(ElevationRaiseError);
    await expect(fleet.raiseElevation({ agentIndex: 1 })).rejects.toThrow(/is not running$/);

    const stats = fleet.stats();
    expect(stats.elevation).toMatchObject({ raised: 0, grantsActive: 0, actuated: 0, cleanedUp: 0 });
    expect(formatStats(stats)).not.toMatch(/elevation/);
    // Counters of every agent are summed.
    fleet.agents[0]!.elevation.stats.raised = 3;
    fleet.agents[0]!.elevation.stats.pending = 2;
    fleet.agents[1]!.elevation.stats.raised = 1;
    fleet.agents[1]!.elevation.stats.autoApproved = 1;
    fleet.agents[1]!.elevation.stats.actuated = 1;
    const summed = fleet.stats();
    expect(summed.elevation).toMatchObject({ raised: 4, pending: 2, autoApproved: 1, actuated: 1 });
    expect(formatStats(summed)).toContain(
      '4 elevation requests (2 pending, 1 auto-approved, 0 denied, 0 ignored), 0 grants active, 1 actuated, 0 cleaned up',
    );
  });
});
