import type { AppContext } from '../../context';
import { forbidden } from '../../http/errors';

// Organization MFA policy (spec 1 §5): `settings.security.requireMfa` stops users from disabling MFA, and
// `settings.security.allowedMfaMethods.sms === false` refuses SMS as a second factor. Only organization members
// have such a policy; partner technicians and platform administrators belong to no organization.

export interface MfaPolicy {
  requireMfa: boolean;
  smsAllowed: boolean;
}

const NO_POLICY: MfaPolicy = { requireMfa: false, smsAllowed: true };

export function mfaPolicyFor(ctx: AppContext, userId: string): MfaPolicy {
  const orgId = ctx.users.membership(userId)?.orgId;
  if (!orgId) return NO_POLICY;
  const row = ctx.db
    .prepare(
      `SELECT json_extract(settings, '$.security.requireMfa') AS require_mfa,
              json_extract(settings, '$.security.allowedMfaMethods.sms') AS sms
       FROM organizations WHERE id = ? AND deleted_at IS NULL`,
    )
    .get(orgId) as { require_mfa: unknown; sms: unknown } | undefined;
  if (!row) return NO_POLICY;
  // JSON true / false come back as 1 / 0; anything but an explicit false leaves SMS allowed (the default).
  return { requireMfa: row.require_mfa === 1, smsAllowed: row.sms !== 0 };
}

export const smsNotAllowed = () =>
  forbidden('SMS multi-factor authentication is not allowed by your organization', 'MFA_METHOD_NOT_ALLOWED');

export const mfaRequiredByOrganization = () =>
  forbidden('Your organization requires multi-factor authentication', 'MFA_REQUIRED_BY_ORGANIZATION');

export function assertSmsAllowed(ctx: AppContext, userId: string): void {
  if (!mfaPolicyFor(ctx, userId).smsAllowed) throw smsNotAllowed();
}
