import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection';
import { insertPartner } from '../tenancy';
import { slugCandidates } from './slug';

// SQL for completing a registration. Callers run these inside the transaction that consumes the token, so a
// partner, its admin role, the user and the association exist together or not at all.

/** First free slug among the candidates (case-insensitive, soft-deleted partners included), or null. */
export function freePartnerSlug(db: Db, companyName: string): string | null {
  const taken = db.prepare('SELECT 1 FROM partners WHERE slug = ? COLLATE NOCASE');
  for (const candidate of slugCandidates(companyName)) {
    if (!taken.get(candidate)) return candidate;
  }
  return null;
}

export function insertActiveUser(
  db: Db,
  input: { email: string; name: string; passwordHash: string; now: string },
): string {
  const id = randomUUID();
  db.prepare(
    `INSERT INTO users (id, email, name, password_hash, status, password_changed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?)`,
  ).run(id, input.email, input.name, input.passwordHash, input.now, input.now, input.now);
  return id;
}

/** Partner (msp, free, active) with its `Partner Admin` role (`*:*`), and the user's association (`all`). */
export function insertPartnerWithAdmin(
  db: Db,
  input: { name: string; slug: string; billingEmail: string; userId: string; now: string },
): { partnerId: string; roleId: string } {
  const partnerId = randomUUID();
  const { now } = input;
  const roleId = insertPartner(db, {
    id: partnerId,
    name: input.name,
    slug: input.slug,
    type: 'msp',
    plan: 'free',
    max_organizations: null,
    max_devices: null,
    settings: '{}',
    service_management_mode: 'native',
    service_management_psa_connection_id: null,
    sso_config: '{}',
    billing_email: input.billingEmail,
    status: 'active',
    created_at: now,
    updated_at: now,
  });
  db.prepare(
    `INSERT INTO partner_users (partner_id, user_id, role_id, org_access, org_ids, created_at)
     VALUES (?, ?, ?, 'all', '[]', ?)`,
  ).run(partnerId, input.userId, roleId, now);
  return { partnerId, roleId };
}
