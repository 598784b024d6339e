/** `POST /demo/seed` and SEED_DEMO: the demo tenant, its technicians, and a fresh fleet enrollment key. */
export interface DemoSeedResponse {
  /** False when the demo tenant already existed (only the fleet key was reissued). */
  created: boolean;
  partnerId: string;
  /** Each demo account with its role in words ("Partner administrator, all organizations"). */
  technicians: Array<{ name: string; email: string; role: string }>;
  /** The technicians' shared password, shown when the tenant is created; null afterwards (it is not stored). */
  password: string | null;
  /**
   * The platform administrator the demo creates when the install has none (so `serve --demo` never leaves a first-run
   * setup page nobody can use); its password is shown this once. Null when a platform administrator already existed.
   */
  platformAdmin: { name: string; email: string; password: string } | null;
  enrollmentKey: { id: string; orgId: string; key: string; expiresAt: string };
}

// Demo-mode simulator panel.

export interface SimulatorStatus {
  /** Demo mode (SEED_DEMO / `serve --demo`): the simulator can run. */
  available: boolean;
  running: boolean;
  /** The organization the running fleet enrolls into (null when stopped). */
  orgId: string | null;
  agents: number;
  connected: number;
  enrolled: number;
  heartbeats: number;
  startedAt: string | null;
  lastError: string | null;
  /** Present while a fleet runs. */
  elevation?: SimulatorElevationStats;
}

/** Privileged-access counters of the running demo fleet (summed over its agents). */
export interface SimulatorElevationStats {
  /** Requests the agents reported, and the server's answers. */
  raised: number;
  pending: number;
  autoApproved: number;
  denied: number;
  ignored: number;
  /** Not taken by the server (429, another 4xx, or no answer). */
  notReported: number;
  /** Local administrator grants the agents hold right now. */
  grantsActive: number;
  /** `actuate_elevation` commands granted, and refused. */
  actuated: number;
  actuationsFailed: number;
  /** `revoke_elevation` commands answered, and grants the agents removed when they expired. */
  cleanedUp: number;
  expiredLocally: number;
}

/** What `POST /demo/simulator/elevation-requests` can make a simulated agent ask for. */
/** The most agents the bundled simulator runs in one demo fleet. */
export const MAX_SIMULATED_AGENTS = 2000;

export const SIMULATED_ELEVATION_KINDS = [
  'signed_installer',
  'unsigned_tool',
  'admin_console',
  'ai_tool',
  'ai_tool_critical',
] as const;
export type SimulatedElevationKind = (typeof SIMULATED_ELEVATION_KINDS)[number];

/** `POST /demo/simulator/elevation-requests`: the server's answer to the simulated agent's report. */
export interface SimulatorElevationResponse {
  success: true;
  /** The elevation request (null when a rule said `ignore`). */
  id: string | null;
  status: 'pending' | 'auto_approved' | 'denied' | 'ignored';
  deviceId: string;
  hostname: string;
}
