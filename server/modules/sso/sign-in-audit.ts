import type { Request } from 'express';
import { clientInfo } from '../../http/client-info';
import type { ProviderRow } from './provider-store';
import type { SsoRuntime } from './runtime';

// Audit entries of the sign-in flow. A refused callback is recorded in the provider's tenant chain (or the
// platform's, when no provider is known) with the code the browser saw and the reason only administrators see.

export function auditSignInRefused(
  rt: SsoRuntime,
  req: Request,
  provider: ProviderRow | null,
  code: string,
  reason: string,
): void {
  rt.ctx.audit.record({
    orgId: provider?.org_id ?? null,
    partnerId: provider && !provider.org_id ? provider.partner_id : null,
    actorType: 'system',
    actorId: 'anonymous',
    action: 'sso.login.failed',
    resourceType: 'sso_provider',
    resourceId: provider?.id ?? null,
    resourceName: provider?.name ?? null,
    details: { code },
    result: 'failure',
    errorMessage: reason.slice(0, 500),
    ...clientInfo(req),
  });
}

/** A user created by first sign-in (rule 11), in the organization's chain. */
export function auditProvisioned(
  rt: SsoRuntime,
  req: Request,
  provider: ProviderRow,
  user: { id: string; email: string },
  roleId: string,
): void {
  rt.ctx.audit.record({
    orgId: provider.org_id,
    actorType: 'system',
    actorId: provider.id,
    action: 'sso.user.provision',
    resourceType: 'user',
    resourceId: user.id,
    resourceName: user.email,
    details: { providerId: provider.id, roleId },
    ...clientInfo(req),
  });
}
