import { randomUUID } from 'node:crypto';
import { transaction } from '../../db/after-commit';
import { insertPendingRequest, recordAutomaticDecision } from './ingest-store';
import type { AppContext } from '../../context';
import type { ElevationStatus, IngestResponse, PamConfig, PamVerdict } from '../../contract';
import type { LimitRule } from '../../http/rate-limit';
import type { AgentCaller } from '../agents';
import { deviceRefOf } from '../devices';
import { ACTUATOR_DISABLED, queueActuation, refusalOf } from './actuation';
import { insertApprovalSlots } from './approval-store';
import { eligibleApprovers } from './approvers';
import { pamConfigFor } from './config-store';
import { agentActor, logEvent, publish } from './events';
import type { Observation } from './observation';
import { decideByRules } from './policy/match';
import type { IngestBody } from './schemas';
import { linkCommand, requestRow } from './store';
import { effectiveTier, riskLevelOf } from './tools';

// `POST /agents/:id/elevation-requests` (spec 2 state table, first four rows). The decision chain: the
// software-policy bridge, then PAM rules by priority, then the organization default. The bridge has nothing to
// consult until software policies exist (spec 3 catalog; not built), so today the chain starts at the rules. An
// evaluator that throws leaves the request `pending` whatever the default says: a broken rule must never turn
// into an automatic approval or denial.

/** Spec 2 limits: about 10 reports per second per device. */
export const INGEST_LIMIT: LimitRule = { bucket: 'pam-ingest:device', limit: 10, windowSeconds: 1 };
export const INGEST_BODY_LIMIT = '32kb';

interface ChainDecision {
  status: Extract<ElevationStatus, 'pending' | 'auto_approved' | 'denied'> | 'ignored';
  rule: { id: string; name: string; approvalDurationMinutes: number | null } | null;
  reason: string | null;
}

const STATUS_OF: Record<PamVerdict, ChainDecision['status']> = {
  auto_approve: 'auto_approved',
  auto_deny: 'denied',
  require_approval: 'pending',
  ignore: 'ignored',
};

function decide(ctx: AppContext, config: PamConfig, siteId: string | null, obs: Observation): ChainDecision {
  const { orgId } = config;
  try {
    const rule = decideByRules(ctx.db, orgId, siteId, obs, new Date());
    if (rule) {
      return {
        status: STATUS_OF[rule.verdict],
        rule: { id: rule.id, name: rule.name, approvalDurationMinutes: rule.approvalDurationMinutes },
        reason: null,
      };
    }
  } catch (err) {
    ctx.log.warn({ err, orgId }, 'PAM rule evaluation failed; the request waits for a technician');
    return { status: 'pending', rule: null, reason: 'Rule evaluation failed; left for a technician' };
  }
  return config.defaultUnmatchedVerdict === 'auto_deny'
    ? { status: 'denied', rule: null, reason: 'Denied by the organization default' }
    : { status: 'pending', rule: null, reason: null };
}

function observe(body: IngestBody): Observation {
  const isTool = body.flow_type === 'ai_tool_action';
  return {
    flowType: body.flow_type,
    subjectUsername: body.subject_username,
    subjectAdGroups: body.subject_ad_groups ?? [],
    targetExecutablePath: body.target_executable_path,
    targetExecutableHash: body.target_executable_hash ?? null,
    targetExecutableSigner: body.target_executable_signer,
    targetSignerThumbprint: body.target_signer_thumbprint ?? null,
    parentImage: body.parent_image,
    commandLine: body.command_line,
    toolName: isTool ? body.tool_name : null,
    riskTier: isTool && body.tool_name ? effectiveTier(body.tool_name, body.risk_tier ?? null) : null,
  };
}

export function ingestElevationRequest(
  ctx: AppContext,
  { device }: AgentCaller,
  body: IngestBody,
): { status: 200 | 201; body: IngestResponse } {
  ctx.limiter.enforce([[INGEST_LIMIT, device.id]], 'Too many elevation requests from this device');
  const obs = observe(body);
  const config = pamConfigFor(ctx.db, device.org_id);
  const decision = decide(ctx, config, device.site_id, obs);
  if (decision.status === 'ignored') return { status: 200, body: { id: null, status: 'ignored' } };

  const id = randomUUID();
  const now = new Date();
  const at = now.toISOString();
  // Kill switch: an automatic approval exists only to be actuated, so while the actuator is off it is refused
  // here (spec 2 Events: "a policy auto-approval refused at ingest") instead of granting on the device.
  // Likewise a rule cannot approve a specific executable that came without its hash (as a technician cannot).
  const refusal =
    decision.status !== 'auto_approved'
      ? null
      : !config.actuatorEnabled
        ? ACTUATOR_DISABLED
        : refusalOf({
            flow_type: obs.flowType,
            target_executable_path: obs.targetExecutablePath,
            target_executable_hash: obs.targetExecutableHash,
          });
  const status = refusal ? 'denied' : decision.status;
  const approved = status === 'auto_approved';
  const duration = approved
    ? (decision.rule?.approvalDurationMinutes ?? config.defaultApprovalDurationMinutes)
    : null;
  const expiresAt = duration ? new Date(now.getTime() + duration * 60_000).toISOString() : null;
  const actor = agentActor(device.id, device.hostname);

  // Announced once: a pending request as requested (the inbox), an automatic one by its decision.
  transaction(ctx.db, () => {
    insertPendingRequest(ctx.db, {
      id,
      orgId: device.org_id,
      deviceId: device.id,
      siteId: device.site_id,
      flowType: obs.flowType,
      risk: riskLevelOf(obs.flowType, obs.targetExecutableSigner, obs.riskTier),
      subject: obs.subjectUsername,
      groups: obs.subjectAdGroups.length ? JSON.stringify(obs.subjectAdGroups) : null,
      path: obs.targetExecutablePath,
      hash: obs.targetExecutableHash,
      signer: obs.targetExecutableSigner,
      thumbprint: obs.targetSignerThumbprint,
      pid: body.pid ?? null,
      parent: obs.parentImage,
      commandLine: obs.commandLine,
      observedAt: body.observed_at ?? null,
      at,
      tool: obs.toolName,
      tier: obs.riskTier,
      digest: obs.flowType === 'ai_tool_action' ? body.action_digest : null,
      // A require_approval rule is shown on the pending request ("matched rule"); it decides nothing yet.
      ruleId: decision.rule?.id ?? null,
      ruleName: decision.rule?.name ?? null,
      reason: decision.status === 'pending' ? decision.reason : null,
      actionExpiresAt: body.action_timeout_seconds
        ? new Date(now.getTime() + body.action_timeout_seconds * 1000).toISOString()
        : null,
    });
    // Every request starts pending in its event log; an automatic decision is a second event a moment later.
    logEvent(ctx.db, id, 'elevation.requested', actor);
    if (status === 'pending') {
      insertApprovalSlots(
        ctx.db,
        id,
        device.org_id,
        eligibleApprovers(ctx.db, deviceRefOf(device), obs.subjectUsername),
      );
      publish(ctx, 'elevation.requested', id);
      return;
    }
    recordAutomaticDecision(ctx.db, {
      id,
      status,
      source: decision.rule ? 'pam_rule' : null,
      ruleId: decision.rule?.id ?? null,
      ruleName: decision.rule?.name ?? null,
      reason: decision.reason,
      duration,
      expiresAt,
      at,
      enforcement: approved ? 'dispatched' : refusal ? 'refused' : null,
      refusal,
    });
    const type = approved ? 'elevation.auto_approved' : 'elevation.denied';
    logEvent(ctx.db, id, type, actor, {
      ...(decision.rule ? { pamRuleId: decision.rule.id, pamRuleName: decision.rule.name } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
      ...(refusal ? { refusalReason: refusal, enforcementStatus: 'refused' } : {}),
    });
    if (approved && expiresAt) {
      const commandId = queueActuation(ctx, requestRow(ctx.db, id)!, expiresAt, null);
      linkCommand(ctx.db, id, 'actuation', commandId);
    }
    publish(ctx, type, id);
  });
  return { status: 201, body: { id, status, expiresAt } };
}
