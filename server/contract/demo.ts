/** `POST /demo/seed` and SEED_DEMO: the demo tenant, its technicians, and a fresh fleet enrollment key. */
export interface DemoSeedResponse {
  /** False when the demo tenant already existed (only the fleet key was reissued). */
  created: boolean;
  partnerId: string;
  technicians: Array<{ name: string; email: string }>;
  /** The technicians' shared password, shown when the tenant is created; null afterwards (it is not stored). */
  password: string | null;
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
}
