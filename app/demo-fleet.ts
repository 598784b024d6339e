import { renameSync } from 'node:fs';
import { ElevationRaiseError, Fleet } from '../agent-sim/fleet';
import type { ElevationStats } from '../agent-sim/pam';
import type { ElevationKind } from '../agent-sim/pam-catalog';
import { FileCredentialStore } from '../agent-sim/state';
import type { SimulatedElevationKind, SimulatorElevationStats } from '../server/contract';
import type {
  DemoFleet,
  DemoFleetLauncher,
  DemoFleetPlan,
  DemoRaiseOutcome,
} from '../server/modules/demo/fleet';

// The demo panel's fleet, made of the bundled agent simulator. This is where server/ and agent-sim/ meet: neither
// imports the other; the entries in app/ hand this launcher to createServer (`demoFleet`).

/** The credential store's fleet key: stable across ports, so a server on another port finds its agents. */
const STORE_LABEL = 'gatehouse-demo';

// The contract's kinds are the simulator's kinds (neither side can import the other): a kind added on one side
// only fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const KINDS_AGREE: Same<SimulatedElevationKind, ElevationKind> = true;
void KINDS_AGREE;

function elevationStats(e: ElevationStats): SimulatorElevationStats {
  return {
    raised: e.raised,
    pending: e.pending,
    autoApproved: e.autoApproved,
    denied: e.denied,
    ignored: e.ignored,
    notReported: e.rateLimited + e.rejected + e.failed,
    grantsActive: e.grantsActive,
    actuated: e.actuated,
    actuationsFailed: e.actuationsFailed,
    cleanedUp: e.cleanedUp,
    expiredLocally: e.expiredLocally,
  };
}

/** The organization's saved agents; an unreadable file is set aside rather than blocking the demo. */
function credentialStore(plan: DemoFleetPlan): FileCredentialStore {
  try {
    return new FileCredentialStore(plan.stateFile, STORE_LABEL, plan.seed);
  } catch (err) {
    const aside = `${plan.stateFile}.unreadable-${Date.now()}`;
    plan.warn('demo simulator state set aside', {
      err: err instanceof Error ? err.message : String(err),
      aside,
    });
    renameSync(plan.stateFile, aside);
    return new FileCredentialStore(plan.stateFile, STORE_LABEL, plan.seed);
  }
}

async function raise(fleet: Fleet, kind: SimulatedElevationKind): Promise<DemoRaiseOutcome> {
  try {
    const raised = await fleet.raiseElevation({ kind });
    return {
      ok: true,
      id: raised.id,
      status: raised.status,
      deviceId: raised.deviceId,
      hostname: raised.hostname,
    };
  } catch (err) {
    if (!(err instanceof ElevationRaiseError)) throw err;
    if (err.reason === 'no_agent') return { ok: false, reason: 'no_agent' };
    if (err.reason === 'rate_limited')
      return { ok: false, reason: 'rate_limited', retryAfterMs: err.retryAfterMs };
    return { ok: false, reason: 'refused', message: err.message };
  }
}

function launch(plan: DemoFleetPlan): DemoFleet {
  const credentials = credentialStore(plan);
  // In a demo the panel's count is what runs: machines removed from the console come back as new devices.
  const needKey: number[] = [];
  for (let index = 0; index < plan.count; index++) {
    const slot = credentials.get(index);
    if (slot?.state !== 'active') {
      if (slot) credentials.set(index, null);
      needKey.push(index);
    }
  }
  const keyFor = plan.enrollmentKeys(needKey);
  const fleet = new Fleet({
    server: plan.serverUrl,
    enrollmentKey: (index) => keyFor.get(index),
    count: plan.count,
    seed: plan.seed,
    domain: plan.domain,
    credentials,
    scenario: plan.scenario,
    onEvent: (agent, event) => {
      if (event.kind === 'failed') plan.onAgentFailed(agent.identity.hostname, event.reason);
    },
  });
  fleet.start();
  const startedAt = fleet.startedAt ?? new Date();
  return {
    startedAt,
    counts() {
      const stats = fleet.stats();
      return {
        agents: stats.agents,
        connected: stats.connected,
        enrolled: stats.enrolled,
        heartbeats: stats.heartbeats,
        lastError: stats.lastError,
        elevation: elevationStats(stats.elevation),
      };
    },
    raiseElevation: (kind) => raise(fleet, kind),
    stop: () => fleet.stop(),
  };
}

/** Simulated agents for `serve --demo --agents N` and the console's simulator panel. */
export const simulatedDemoFleet: DemoFleetLauncher = { launch };
