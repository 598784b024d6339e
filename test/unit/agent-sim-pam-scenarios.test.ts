import { describe, expect, it, vi } from 'vitest';
import type { AgentHandle } from '../../agent-sim/handle';
import { ElevationRaiseError, Fleet, formatStats } from '../../agent-sim/fleet';
import { elevationOf } from '../../agent-sim/pam';
import { getScenario, scenarioNames } from '../../agent-sim/scenarios';
import { fakeAgent, useAgentSimPamWorld } from '../support/agent-sim-pam-world';

// The pam scenarios and the fleet raising elevation requests.

useAgentSimPamWorld();

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
