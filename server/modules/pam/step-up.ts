import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import type {
  AssuranceLevel,
  AssuranceMethod,
  RiskLevel,
  StepUpFloor,
  StepUpRequirement,
} from '../../contract';
import { HttpError } from '../../http/errors';
import { checkPassword } from '../auth';
import { checkSecondFactor } from '../mfa';
import type { UserRow } from '../users';
import { partnerSettingsOfOrg } from '../tenancy';
import { isSubject } from './approvers';
import { hasApproverDevice } from './webauthn';

// The approval step-up (DESIGN §5). Assurance: L1 session only; L2 a verified platform assertion bound to the
// request; L3 = L2 plus fresh re-authentication. The partner's policy (settings.security.approvalStepUp) sets a
// floor per request risk; under `enforce` an approve below it is 403, under `grace` it passes and is flagged.
// Critical requests always need the re-authentication part (401 `reauth_required`), whatever the mode.
//
// Automation: an API key decides only with the explicit `pam:approve` scope (`*` does not include it, see
// EXPLICIT_API_KEY_SCOPES). Its decision is level 0, method `automation`: no person, device or password stands
// behind it, so it sits below every floor. Under `enforce` its approve is always 403 `step_up_required` (floors
// are at least 1), under `grace` it passes flagged, under `off` it passes. A critical request is never approved
// by a key: 403 `step_up_required` with requiredLevel 3, whatever the mode. 403 rather than the 401
// `reauth_required` a person gets, because no re-authentication can help: the key itself is valid and stays so,
// it just may not do this. A deny by a key is never blocked.

export type StepUpMode = 'off' | 'grace' | 'enforce';
export interface StepUpPolicy {
  mode: StepUpMode;
  floors: Record<RiskLevel, StepUpFloor>;
}

export const DEFAULT_STEP_UP: StepUpPolicy = {
  mode: 'grace',
  floors: { low: 1, medium: 2, high: 2, critical: 3 },
};

const LEVELS = new Set([1, 2, 3]);

/** The policy of the organization's partner, each missing or malformed part falling back to the default. */
export function stepUpPolicyFor(ctx: AppContext, orgId: string): StepUpPolicy {
  const row = partnerSettingsOfOrg(ctx.db, orgId);
  const settings = row ? (JSON.parse(row.settings) as { security?: { approvalStepUp?: unknown } }) : {};
  const raw = (settings.security?.approvalStepUp ?? {}) as {
    mode?: unknown;
    floors?: Record<string, unknown>;
  };
  const mode =
    raw.mode === 'off' || raw.mode === 'grace' || raw.mode === 'enforce' ? raw.mode : DEFAULT_STEP_UP.mode;
  const floors = { ...DEFAULT_STEP_UP.floors };
  for (const risk of Object.keys(floors) as RiskLevel[]) {
    const value = raw.floors?.[risk];
    if (typeof value === 'number' && LEVELS.has(value)) floors[risk] = value as StepUpFloor;
  }
  return { mode, floors };
}

export function stepUpRequirement(
  ctx: AppContext,
  /** Null for API keys: they have no password, devices or machine account. */
  user: UserRow | null,
  request: { orgId: string; riskLevel: RiskLevel; subjectUsername: string | null },
): StepUpRequirement {
  const policy = stepUpPolicyFor(ctx, request.orgId);
  const reauthRequired = request.riskLevel === 'critical';
  return {
    riskLevel: request.riskLevel,
    mode: policy.mode,
    requiredLevel: policy.floors[request.riskLevel],
    reauthRequired,
    reauthMethod: user?.password_hash ? 'password' : user?.mfa_enabled ? 'mfa_code' : null,
    hasApproverDevice: user ? hasApproverDevice(ctx, user.id) : false,
    selfApproval: user ? isSubject(user.email, request.subjectUsername) : false,
  };
}

const reauthFailed = () => new HttpError(401, 'Re-authentication failed', 'reauth_failed');

/**
 * Checks the fresh re-authentication given with a decision: the account's password, or for accounts without a
 * password an MFA code (consumed like at sign-in). Returns false when none was given. Both go through the secret
 * guard under the user's account, sharing its budgets with sign-in, so respond cannot be used to guess either.
 * A wrong one is 401 `reauth_failed` and never ends the session.
 */
export async function checkReauth(
  ctx: AppContext,
  req: Request,
  user: UserRow,
  input: { reauthPassword?: string | undefined; reauthMfaCode?: string | undefined },
): Promise<boolean> {
  if (user.password_hash) {
    if (input.reauthPassword === undefined) return false;
    if (!(await checkPassword(ctx, req, user, input.reauthPassword))) throw reauthFailed();
    return true;
  }
  if (input.reauthMfaCode === undefined) return false;
  if (!user.mfa_enabled) throw reauthFailed();
  if (!(await checkSecondFactor(ctx, req, user, input.reauthMfaCode))) throw reauthFailed();
  return true;
}

/**
 * One re-authentication that covers a set of decisions (bulk approve, "decide similar"), the way each approver
 * device assertion is bound to its request. A password could simply be checked again for every request, but an
 * MFA code is spent by its first check (the TOTP step cannot be replayed), so an account whose only
 * re-authentication is a code could approve just the first critical request of a set. The set is checked once,
 * up front, and the result is bound to exactly the ids named in that call; it lives only for the call (nothing
 * is stored or returned, so nothing can be presented again), and each decision records the ceremony it used.
 */
export interface SharedReauth {
  /** Names the ceremony in every decision's event and audit entry, so the decisions it covered can be found. */
  ceremonyId: string;
  requestIds: ReadonlySet<string>;
}

/**
 * Checks the re-authentication sent with a set of decisions once for all of them: the shared result, or null
 * when none was sent. A wrong one is 401 `reauth_failed`, a throttled account 429, as for a single decision.
 */
export async function reauthForSet(
  ctx: AppContext,
  req: Request,
  user: UserRow,
  input: { reauthPassword?: string | undefined; reauthMfaCode?: string | undefined },
  requestIds: readonly string[],
): Promise<SharedReauth | null> {
  if (!(await checkReauth(ctx, req, user, input))) return null;
  return { ceremonyId: randomUUID(), requestIds: new Set(requestIds) };
}

/** What a decision's event and audit entry say about a shared re-authentication it used. */
export const sharedReauthDetails = (shared: SharedReauth) => ({
  reauthCeremonyId: shared.ceremonyId,
  reauthCoveredRequests: shared.requestIds.size,
});

/** What an API key's decision records: level 0, below every floor. */
export const AUTOMATED_ASSURANCE = { level: 0, method: 'automation' } as const satisfies {
  level: AssuranceLevel;
  method: AssuranceMethod;
};

/** A critical request needs a person (level 3): an API key is refused outright, whatever the policy mode. */
export function automationCannotApproveCritical(): HttpError {
  return new HttpError(
    403,
    'Critical requests need a person with an approver device and a fresh re-authentication; API keys cannot approve them',
    'step_up_required',
    { requiredLevel: 3, level: AUTOMATED_ASSURANCE.level },
  );
}

/** The assurance a person's decision reached. */
export function assurance(
  proved: boolean,
  reauthenticated: boolean,
): {
  level: AssuranceLevel;
  method: AssuranceMethod;
} {
  if (proved) {
    return reauthenticated
      ? { level: 3, method: 'platform_authenticator_reauth' }
      : { level: 2, method: 'platform_authenticator' };
  }
  // Re-authentication without a platform assertion proves the password, not presence at a trusted device: L1.
  return { level: 1, method: reauthenticated ? 'session_reauth' : 'session' };
}
