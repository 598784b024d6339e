import { describe, expect, it, vi } from 'vitest';
import { AgentElevation, elevationOf } from '../../agent-sim/pam';
import { ELEVATION_KINDS, type ElevationKind } from '../../agent-sim/pam-catalog';
import type { HttpAnswer } from '../../agent-sim/transport';
import { ingestBody } from '../../server/modules/pam/schemas';
import { validTiersOf } from '../../server/modules/pam/tools';
import {
  NOW,
  sha256,
  answer,
  fakeAgent,
  indexWhere,
  useAgentSimPamWorld,
} from '../support/agent-sim-pam-world';

// The simulated agent's elevation requests: the catalog (deterministic per seed, valid against the server's
// ingest body) and how a report's answer is handled.

useAgentSimPamWorld();

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
