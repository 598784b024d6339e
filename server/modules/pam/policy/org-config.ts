import type { Request } from 'express';
import { cancelQueuedActuations } from '../actuation';
import type { z } from 'zod';
import type { PamConfig, PamConfigResponse } from '../../../contract';
import type { AppContext } from '../../../context';
import type { AuthContext } from '../../../http/auth-context';
import { auditCaller } from '../../audit';
import { pamConfigFor } from '../config-store';
import { callerId, requireWholeOrgWrite, targetOrg } from './access';
import type { putConfigBody } from './schemas';
import { policyStore } from './store';

// /pam/config (spec 2 "PAM organization configuration"): the verdict for requests no rule decides, plus the
// Gatehouse extensions default approval window and actuator kill switch. PUT is an upsert; fields it omits
// keep their current (or default) values.

export function getPamConfig(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string | undefined,
): PamConfigResponse {
  return { success: true, config: pamConfigFor(ctx.db, targetOrg(ctx, auth, orgId)) };
}

export function putPamConfig(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: z.infer<typeof putConfigBody>,
): PamConfigResponse {
  const orgId = targetOrg(ctx, auth, body.orgId);
  requireWholeOrgWrite(ctx, auth);
  const before = pamConfigFor(ctx.db, orgId);
  const after: PamConfig = {
    orgId,
    defaultUnmatchedVerdict: body.defaultUnmatchedVerdict,
    defaultApprovalDurationMinutes:
      body.defaultApprovalDurationMinutes ?? before.defaultApprovalDurationMinutes,
    actuatorEnabled: body.actuatorEnabled ?? before.actuatorEnabled,
  };
  policyStore(ctx.db).upsertConfig({
    org_id: orgId,
    verdict: after.defaultUnmatchedVerdict,
    minutes: after.defaultApprovalDurationMinutes,
    actuator: after.actuatorEnabled ? 1 : 0,
    updated_by: callerId(auth),
    updated_at: new Date().toISOString(),
  });
  const cancelled = before.actuatorEnabled && !after.actuatorEnabled ? cancelQueuedActuations(ctx, orgId) : 0;
  const changes = (['defaultUnmatchedVerdict', 'defaultApprovalDurationMinutes', 'actuatorEnabled'] as const)
    .filter((k) => before[k] !== after[k])
    .map((field) => ({ field, from: before[field], to: after[field] }));
  auditCaller(ctx, req, auth, {
    orgId,
    action: 'pam.config.update',
    resourceType: 'pam_config',
    resourceId: orgId,
    details: { ...after, changes, ...(cancelled ? { cancelledActuations: cancelled } : {}) },
  });
  return { success: true, config: pamConfigFor(ctx.db, orgId) };
}
