import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  MAX_SIMULATED_AGENTS,
  type SimulatedElevationKind,
  type SimulatorElevationResponse,
  type SimulatorStatus,
} from '../../contract';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import { conflict, HttpError, notFound } from '../../http/errors';
import { insertEnrollmentKey } from '../enrollment-keys';
import type { DemoFleet, DemoFleetLauncher } from './fleet';
import {
  deleteEnrollmentKeysNamed,
  liveOrgIdBySlugs,
  orgBelongsToPartnerSlug,
  organizationName,
  partnerBySlug,
  siteIdsOf,
} from './store';

// The demo fleet: simulated agents run inside the server process against the server's own address
// (`serve --demo --agents N`, and the console's simulator panel). The agents still speak only the public agent
// protocol over real HTTP and WebSocket; running them in-process just spares the demo room a second terminal.
// The agents themselves come from the launcher the composing entry plugs in (./fleet.ts); this module keeps the
// demo rules: which organizations, one run at a time, and the enrollment keys.
//
// Credentials are kept per organization in DATA_DIR/demo-simulator/, so restarting the demo server brings back
// the same devices instead of enrolling new ones. Enrollment keys are minted only for the agents that need one,
// one key per site (agents are spread over the organization's sites), valid for an hour.

export const DEMO_SLUG = 'northwind-demo';
export const FLEET_ORG_SLUG = 'contoso-dental';
const KEY_NAME = 'Demo simulator';
const KEY_TTL_MS = 60 * 60_000;
export const SIMULATOR_UNAVAILABLE = () =>
  new HttpError(409, 'The simulator runs only in demo mode', 'SIMULATOR_UNAVAILABLE');
/** Demo mode in a process composed without the simulator (an embedder that passed no `demoFleet`). */
const NO_FLEET = () =>
  new HttpError(409, 'This server process was started without simulated agents', 'SIMULATOR_UNAVAILABLE');
const NOT_RUNNING = () =>
  conflict('No simulated agent is running in this organization', 'SIMULATOR_NOT_RUNNING');

interface Running {
  fleet: DemoFleet;
  orgId: string;
  startedAt: Date;
}

/**
 * The organization's Windows domain, as its machines name it in users, groups and logs: the first word of its name,
 * NetBIOS-style ("Contoso Dental" -> CONTOSO, at most 15 letters and digits). One per organization, so a demo
 * tenant's devices never show another tenant's accounts.
 */
export function domainForOrg(name: string): string {
  const word = name.split(/\s+/).find((w) => /[a-z0-9]/i.test(w)) ?? '';
  return (
    word
      .replace(/[^a-z0-9]/gi, '')
      .toUpperCase()
      .slice(0, 15) || 'CORP'
  );
}

/** A stable seed per organization: the same organization always gets the same machines. */
export function seedForOrg(orgId: string): number {
  return (createHash('sha256').update(orgId).digest().readUInt32BE(0) % 1_000_000) + 1;
}

/** The address the server can reach itself on, from the address it listens on. */
export function selfUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '' || host === 'localhost') return `http://127.0.0.1:${port}`;
  if (host === '::' || host === '::1') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

export class DemoSimulator {
  private running: Running | null = null;
  private lastError: string | null = null;
  private url: string | null = null;
  /** Serializes start and stop: a double click must not run two fleets. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly launcher: DemoFleetLauncher | null,
  ) {}

  /** Demo mode, in a process that was given simulated agents to run. */
  get available(): boolean {
    return this.ctx.config.seedDemo && this.launcher !== null;
  }

  /** A failure outside a request (the start beside `serve`), shown on the panel. */
  recordError(message: string): void {
    this.lastError = message;
  }

  /** Set once the server listens; until then the simulator cannot start. */
  attach(url: string): void {
    this.url = url;
  }

  status(): SimulatorStatus {
    const run = this.running;
    const stats = run?.fleet.counts();
    return {
      available: this.available,
      running: run !== null,
      orgId: run?.orgId ?? null,
      agents: stats?.agents ?? 0,
      connected: stats?.connected ?? 0,
      enrolled: stats?.enrolled ?? 0,
      heartbeats: stats?.heartbeats ?? 0,
      startedAt: run?.startedAt.toISOString() ?? null,
      lastError: stats?.lastError ?? this.lastError,
      ...(stats ? { elevation: stats.elevation } : {}),
    };
  }

  /**
   * Makes one connected agent of the running fleet report an elevation request of `kind` (the demo panel's
   * "Raise elevation request"). 409 when no fleet runs in `orgId` (default: wherever it runs) or none of its
   * agents is connected; the server's refusal of the report itself is passed on (429 with its Retry-After).
   */
  async raiseElevation(input: {
    orgId?: string | undefined;
    kind: SimulatedElevationKind;
  }): Promise<SimulatorElevationResponse & { orgId: string }> {
    if (!this.available) throw SIMULATOR_UNAVAILABLE();
    const run = this.running;
    if (!run || (input.orgId !== undefined && run.orgId !== input.orgId)) throw NOT_RUNNING();
    const raised = await run.fleet.raiseElevation(input.kind);
    if (raised.ok) {
      const { ok: _ok, ...answer } = raised;
      return { success: true, ...answer, orgId: run.orgId };
    }
    if (raised.reason === 'no_agent') throw NOT_RUNNING();
    if (raised.reason === 'rate_limited') {
      const seconds = Math.max(1, Math.ceil((raised.retryAfterMs ?? 1000) / 1000));
      throw new HttpError(429, 'Too many elevation requests from this device', 'RATE_LIMITED', undefined, {
        'Retry-After': String(seconds),
      });
    }
    throw conflict(
      `The simulated agent's request was not taken: ${raised.message}`,
      'SIMULATOR_REQUEST_FAILED',
    );
  }

  /** The demo partner's fleet organization (Contoso Dental), or null when the demo tenant is missing. */
  defaultOrgId(): string | null {
    return liveOrgIdBySlugs(this.ctx.db, DEMO_SLUG, FLEET_ORG_SLUG);
  }

  /** Whether the organization belongs to the demo partner (simulated devices go nowhere else). */
  isDemoOrg(orgId: string): boolean {
    return orgBelongsToPartnerSlug(this.ctx.db, orgId, DEMO_SLUG);
  }

  demoPartnerId(): string | null {
    const row = partnerBySlug(this.ctx.db, DEMO_SLUG);
    return row && !row.deleted_at ? row.id : null;
  }

  /** Starts `count` agents in `orgId` (default: the demo fleet organization); a running fleet is replaced. */
  start(input: {
    count: number;
    orgId?: string | undefined;
    startedBy?: string | undefined;
  }): Promise<SimulatorStatus> {
    return this.serialized(async () => {
      if (!this.ctx.config.seedDemo) throw SIMULATOR_UNAVAILABLE();
      const launcher = this.launcher;
      if (!launcher) throw NO_FLEET();
      if (!this.url) throw new HttpError(503, 'The server is still starting', 'SIMULATOR_NOT_READY');
      const count = input.count;
      if (!Number.isInteger(count) || count < 1 || count > MAX_SIMULATED_AGENTS)
        throw new HttpError(400, `count must be between 1 and ${MAX_SIMULATED_AGENTS}`, 'VALIDATION_ERROR');
      const orgId = input.orgId ?? this.defaultOrgId();
      if (!orgId)
        throw conflict('The demo tenant is missing; seed the demo data first', 'DEMO_TENANT_MISSING');
      if (!this.isDemoOrg(orgId)) throw notFound('Organization not found');
      await this.stopRunning();

      const fleet = launcher.launch({
        serverUrl: this.url,
        count,
        seed: seedForOrg(orgId),
        domain: domainForOrg(organizationName(this.ctx.db, orgId) ?? ''),
        scenario: this.ctx.config.demoScenario,
        stateFile: join(this.ctx.config.dataDir, 'demo-simulator', `${orgId}.json`),
        enrollmentKeys: (indexes) => this.mintKeys(orgId, indexes, input.startedBy ?? 'system'),
        onAgentFailed: (hostname, reason) => {
          this.lastError = `${hostname}: ${reason}`;
        },
        warn: (message, details) => this.ctx.log.warn(details, message),
      });
      this.lastError = null;
      this.running = { fleet, orgId, startedAt: fleet.startedAt };
      this.ctx.log.info({ orgId, count }, 'demo simulator started');
      return this.status();
    });
  }

  /** Stops the fleet; resolves with the organization it ran in (null when nothing ran). */
  stop(): Promise<{ orgId: string; agents: number } | null> {
    return this.serialized(() => this.stopRunning());
  }

  private async stopRunning(): Promise<{ orgId: string; agents: number } | null> {
    const run = this.running;
    if (!run) return null;
    this.running = null;
    const stats = run.fleet.counts();
    this.lastError = stats.lastError;
    await run.fleet.stop();
    this.ctx.log.info({ orgId: run.orgId, agents: stats.agents }, 'demo simulator stopped');
    return { orgId: run.orgId, agents: stats.agents };
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * One key per site for the agents that must enroll (round-robin over the organization's sites, so the demo
   * fleet is spread like a real one), replacing the previous simulator keys of the organization.
   */
  private mintKeys(orgId: string, indexes: readonly number[], createdBy: string): Map<number, string> {
    const keys = new Map<number, string>();
    const { db } = this.ctx;
    const sites = siteIdsOf(db, orgId);
    const placements: Array<string | null> = sites.length > 0 ? sites : [null];
    transaction(db, () => {
      deleteEnrollmentKeysNamed(db, orgId, KEY_NAME);
      if (indexes.length === 0) return;
      const bySite = new Map<string | null, number[]>();
      for (const index of indexes) {
        const site = placements[index % placements.length]!;
        bySite.set(site, [...(bySite.get(site) ?? []), index]);
      }
      const expiresAt = new Date(Date.now() + KEY_TTL_MS).toISOString();
      for (const [siteId, members] of bySite) {
        const { key } = insertEnrollmentKey(this.ctx, {
          orgId,
          siteId,
          name: KEY_NAME,
          // Spare uses: an agent whose enroll answer is lost on a loaded machine enrolls again, and must not
          // exhaust the key for its siblings.
          maxUsage: Math.min(100_000, members.length + Math.max(2, Math.ceil(members.length / 10))),
          expiresAt,
          createdBy,
        });
        for (const index of members) keys.set(index, key);
      }
    });
    return keys;
  }
}

const simulators = new WeakMap<AppContext, DemoSimulator>();

/** Gives the server its one demo simulator, with the fleet the composing entry supplied (if any). */
export function installDemoSimulator(ctx: AppContext, launcher: DemoFleetLauncher | null): DemoSimulator {
  const sim = new DemoSimulator(ctx, launcher);
  simulators.set(ctx, sim);
  return sim;
}

/** The server's one demo simulator (one without a fleet when none was installed). */
export function demoSimulator(ctx: AppContext): DemoSimulator {
  return simulators.get(ctx) ?? installDemoSimulator(ctx, null);
}

/**
 * `serve --demo --agents N`: called once the server listens. A failure is logged, not thrown: the server is up
 * and the console can start the fleet later.
 */
export async function startDemoFleet(ctx: AppContext, url: string): Promise<void> {
  const sim = demoSimulator(ctx);
  sim.attach(url);
  if (!ctx.config.seedDemo || ctx.config.demoAgents <= 0) return;
  try {
    const count = Math.min(ctx.config.demoAgents, MAX_SIMULATED_AGENTS);
    await sim.start({ count });
    ctx.audit.record({
      orgId: sim.status().orgId,
      actorType: 'system',
      actorId: 'system',
      actorEmail: null,
      action: 'demo.simulator.start',
      resourceType: 'simulator',
      resourceId: null,
      resourceName: 'Demo simulator',
      details: { count, source: 'serve --agents' },
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    sim.recordError(message);
    ctx.log.warn({ err: message }, 'demo simulator did not start');
  }
}
