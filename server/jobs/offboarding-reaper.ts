import type { AppContext } from '../context';
import { partnerFullyUninstalled, severPartnerAgents } from '../modules/agents';
import { churnPartner, partnersOffboardingSince } from '../modules/tenancy';
import { transaction } from '../db/after-commit';

// The partner offboarding reaper (spec 1, Partner status): an `offboarding` partner becomes `churned` when every
// device has uninstalled or the drain window (OFFBOARDING_DRAIN_WINDOW_HOURS, default 72) has ended. State lives
// in SQLite (partners.status and offboarding_started_at), so a restart simply picks up where it left off.

const INTERVAL_MS = 60 * 1000;
/** Audit actor id of the reaper; not a UUID, so the audit writer keeps it in details.rawActorId. */
const REAPER_ACTOR = 'offboarding-reaper';

/** Finalizes every partner whose drain is over; returns the ids turned `churned`. */
export function runOffboardingReaper(ctx: AppContext, now = new Date()): string[] {
  const windowMs = ctx.config.offboardingDrainWindowHours * 3600 * 1000;
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const at = now.toISOString();
  // Candidates: every offboarding partner. Those inside the drain window finalize early once every device
  // has uninstalled; the others when the window ends.
  const churned: string[] = [];
  for (const partner of partnersOffboardingSince(ctx.db, at)) {
    const windowOver = (partner.offboarding_started_at ?? at) <= cutoff;
    const uninstalled = !windowOver && partnerFullyUninstalled(ctx.db, partner.id);
    if (!windowOver && !uninstalled) continue;
    // One partner per transaction; `churn` re-checks the status, so a PATCH back to `active` that lands between
    // the query and the update wins. The remaining agent credentials are severed with the flip.
    const flipped = transaction(ctx.db, () => {
      if (!churnPartner(ctx.db, partner.id, at)) return null;
      return { severed: severPartnerAgents(ctx.db, partner.id) };
    });
    if (!flipped) continue;
    ctx.agentHub.disconnectPartner(partner.id, 'partner churned');
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
        reason: uninstalled ? 'all_devices_uninstalled' : 'drain_window_elapsed',
        offboardingStartedAt: partner.offboarding_started_at,
        agentCredentialsSevered: flipped.severed,
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
