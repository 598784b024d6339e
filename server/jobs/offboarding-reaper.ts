import type { AppContext } from '../context';
import { TenancyStore } from '../modules/tenancy/store';

// The partner offboarding reaper (spec 1, Partner status): an `offboarding` partner becomes `churned` when every
// device has uninstalled or the drain window (OFFBOARDING_DRAIN_WINDOW_HOURS, default 72) has ended. State lives
// in SQLite (partners.status and offboarding_started_at), so a restart simply picks up where it left off.

const INTERVAL_MS = 60 * 1000;
/** Audit actor id of the reaper; not a UUID, so the audit writer keeps it in details.rawActorId. */
const REAPER_ACTOR = 'offboarding-reaper';

/** Finalizes every partner whose drain is over; returns the ids turned `churned`. */
export function runOffboardingReaper(ctx: AppContext, now = new Date()): string[] {
  const store = new TenancyStore(ctx.db);
  const windowMs = ctx.config.offboardingDrainWindowHours * 3600 * 1000;
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const at = now.toISOString();
  // Devices arrive with issue 4. Then a partner whose devices have all uninstalled is churned early too: add
  // `OR every device of the partner has uninstalled` to the candidate query (store.offboardingSince), and sever
  // the remaining agent credentials in the same transaction as the flip below.
  const churned: string[] = [];
  for (const partner of store.offboardingSince(cutoff)) {
    // One partner per transaction; `churn` re-checks the status, so a PATCH back to `active` that lands between
    // the query and the update wins.
    const flipped = ctx.db.transaction(() => store.churn(partner.id, at))();
    if (!flipped) continue;
    churned.push(partner.id);
    ctx.audit.record({
      orgId: null,
      partnerId: partner.id,
      actorType: 'system',
      actorId: REAPER_ACTOR,
      action: 'partner.update',
      resourceType: 'partner',
      resourceId: partner.id,
      resourceName: partner.name,
      details: {
        changedFields: ['status'],
        status: { from: 'offboarding', to: 'churned' },
        reason: 'drain_window_elapsed',
        offboardingStartedAt: partner.offboarding_started_at,
      },
    });
  }
  if (churned.length) ctx.log.info({ partners: churned }, 'offboarding finalized: partners churned');
  return churned;
}

export function startOffboardingReaper(ctx: AppContext): () => void {
  const tick = () => {
    try {
      runOffboardingReaper(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'offboarding reaper failed');
    }
  };
  tick();
  const timer = setInterval(tick, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
