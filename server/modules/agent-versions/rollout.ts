import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { AgentVersionRollout } from '../../contract';
import { transaction } from '../../db/after-commit';
import type { UserAuth } from '../../http/auth-context';
import { notFound } from '../../http/errors';
import { auditCaller } from '../audit';
import { requireSystemScope } from './service';
import { rolloutPercentOf, upsertRollout, versionRegistered } from './store';

// Staged rollout of an agent version (issue 16): a platform administrator offers a new build to a share of the
// eligible devices first. Which devices are in the share is decided by a hash of the version and the device id, so
// the choice is stable across heartbeats and restarts (nothing is stored per device), widening the share only adds
// devices (a device in at 10 % is still in at 50 %), and each version draws its own early devices rather than
// the same few machines taking every release first.

/** The device's place in the version's rollout, in [0, 100): it is offered the version when below the share. */
export function rolloutBucket(version: string, deviceId: string): number {
  const digest = createHash('sha256').update(`${version}\n${deviceId}`).digest();
  return (digest.readUInt32BE(0) / 0x1_0000_0000) * 100;
}

export function inRollout(percent: number, version: string, deviceId: string): boolean {
  return percent >= 100 || rolloutBucket(version, deviceId) < percent;
}

/** Sets the share of eligible devices offered `version` (0 pauses it, 100 offers it to all); audited. */
export function setRollout(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  version: string,
  percent: number,
): AgentVersionRollout {
  requireSystemScope(auth);
  const previous = transaction(ctx.db, () => {
    if (!versionRegistered(ctx.db, version)) throw notFound(`Agent version ${version} not found`);
    const before = rolloutPercentOf(ctx.db, version);
    upsertRollout(ctx.db, version, percent, auth.userId, new Date().toISOString());
    return before;
  });
  auditCaller(ctx, req, auth, {
    orgId: null,
    action: 'agent_version.rollout',
    resourceType: 'agent_version',
    // A rollout belongs to a version across its platforms, which has no id of its own (audit ids are UUIDs).
    resourceId: null,
    resourceName: `Agent ${version}`,
    details: { version, rolloutPercent: percent, previousPercent: previous },
  });
  return { version, rolloutPercent: percent };
}
