import type { Request } from 'express';
import type { Db } from '../db/connection';
import { partnerGate } from '../modules/tenancy/access-store';
import { HttpError } from './errors';
import { IpRanges } from './ip';

// The partner guard (spec 1, Partner status and §9): a partner that is not active blocks its users and keys, and
// a non-empty `settings.security.ipAllowlist` admits only listed addresses. Platform administrators and agents
// are exempt. Runs at login (IP refusal is 401 there) and on every authenticated request (403).

const INACTIVE_MESSAGES: Record<string, string> = {
  pending: 'Partner account is pending activation',
  suspended: 'Partner account is suspended',
  churned: 'Partner account is closed',
  offboarding: 'Partner account is being offboarded',
  deleted: 'Partner account is closed',
};

export type GuardPhase = 'login' | 'request';

export class TenantGuard {
  // Compiled allowlists by their JSON text: a partner's list changes rarely, requests are many.
  private readonly compiled = new Map<string, IpRanges>();

  constructor(private readonly db: Db) {}

  check(partnerId: string, req: Request, phase: GuardPhase): void {
    let row: ReturnType<typeof partnerGate>;
    try {
      row = partnerGate(this.db, partnerId);
    } catch {
      throw new HttpError(503, 'Service temporarily unavailable');
    }
    const status = !row ? 'deleted' : row.deleted_at ? 'deleted' : row.status;
    if (status !== 'active') {
      throw new HttpError(
        403,
        INACTIVE_MESSAGES[status] ?? 'Partner account is not active',
        'PARTNER_INACTIVE',
      );
    }
    const ranges = this.allowlist(row?.allowlist ?? null);
    if (!ranges) return;
    const address = req.clientAddress;
    if (!address?.trusted) {
      throw new HttpError(403, 'Client address cannot be trusted', 'untrusted_ip');
    }
    if (!ranges.has(address.ip)) {
      throw new HttpError(
        phase === 'login' ? 401 : 403,
        'Access from this IP address is not allowed',
        'IP_NOT_ALLOWED',
      );
    }
  }

  private allowlist(json: string | null): IpRanges | null {
    if (!json) return null;
    let ranges = this.compiled.get(json);
    if (!ranges) {
      const entries = JSON.parse(json) as unknown;
      ranges = new IpRanges(Array.isArray(entries) ? entries.filter((e) => typeof e === 'string') : []);
      if (this.compiled.size > 1000) this.compiled.clear();
      this.compiled.set(json, ranges);
    }
    return ranges.size > 0 ? ranges : null;
  }
}
