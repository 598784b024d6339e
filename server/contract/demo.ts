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
