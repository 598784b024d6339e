import type { AppContext } from '../../context';
import { badRequest, forbidden } from '../../http/errors';
import { orgMfaPolicyRow } from './store';
import { membershipOf } from '../users';

// Organization MFA policy (spec 1 §5): `settings.security.requireMfa` stops users from disabling MFA, and
// `settings.security.allowedMfaMethods.sms === false` refuses SMS as a second factor. Only organization members
// have such a policy; partner technicians and platform administrators belong to no organization.

export interface MfaPolicy {
  requireMfa: boolean;
  smsAllowed: boolean;
}

const NO_POLICY: MfaPolicy = { requireMfa: false, smsAllowed: true };

export function mfaPolicyFor(ctx: AppContext, userId: string): MfaPolicy {
  const orgId = membershipOf(ctx.db, userId)?.orgId;
  if (!orgId) return NO_POLICY;
  const row = orgMfaPolicyRow(ctx.db, orgId);
  if (!row) return NO_POLICY;
  // JSON true / false come back as 1 / 0; anything but an explicit false leaves SMS allowed (the default).
  return { requireMfa: row.require_mfa === 1, smsAllowed: row.sms !== 0 };
}

/** ENABLE_2FA=false turns every MFA enrollment off (sign-in of already enrolled users is not affected). */
export function requireMfaFeature(ctx: AppContext): void {
  if (!ctx.config.enable2fa)
    throw badRequest('Multi-factor authentication is disabled on this server', 'MFA_DISABLED');
}

export const smsNotAllowed = () =>
  forbidden('SMS multi-factor authentication is not allowed by your organization', 'MFA_METHOD_NOT_ALLOWED');

export const mfaRequiredByOrganization = () =>
  forbidden('Your organization requires multi-factor authentication', 'MFA_REQUIRED_BY_ORGANIZATION');

export function assertSmsAllowed(ctx: AppContext, userId: string): void {
  if (!mfaPolicyFor(ctx, userId).smsAllowed) throw smsNotAllowed();
}
