import { describe, expect, it, vi } from 'vitest';
import type { AgentHandle } from '../../agent-sim/handle';
import { elevationOf } from '../../agent-sim/pam';
import { NOW, fakeAgent, run, useAgentSimPamWorld } from '../support/agent-sim-pam-world';

// The simulated agent's grant table behind actuate_elevation and revoke_elevation, with its expiry timers.

useAgentSimPamWorld();

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
