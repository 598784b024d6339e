import { statement, type Db } from '../../db/connection';
import type { AccessReviewDecision, AccessReviewStatus } from '../../contract/access-reviews';
import type { ReviewTenant } from './tenant';

// Every SQL statement of the access-reviews module (tables in migrations/0011_access_reviews.sql). Free functions
// of the database; the service decides transactions and who may see what.

export interface ReviewRow {
  id: string;
  partner_id: string | null;
  org_id: string | null;
  name: string;
  description: string | null;
  status: AccessReviewStatus;
  reviewer_id: string;
  reviewer_name: string | null;
  reviewer_email: string | null;
  due_date: string | null;
  reminder_sent_at: string | null;
  revoked_count: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  item_count: number;
  decided_count: number;
}

export interface ItemRow {
  id: string;
  review_id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  last_active_at: string | null;
  role_id: string;
  role_name: string;
  permissions: string;
  decision: AccessReviewDecision;
  notes: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
}

/** A person holding a role in the tenant: one review item each. */
export interface Mapping {
  user_id: string;
  role_id: string;
  role_name: string;
}

const REVIEW_SELECT = `SELECT r.*, u.name AS reviewer_name, u.email AS reviewer_email,
    (SELECT COUNT(*) FROM access_review_items i WHERE i.review_id = r.id) AS item_count,
    (SELECT COUNT(*) FROM access_review_items i WHERE i.review_id = r.id AND i.decision <> 'pending')
      AS decided_count
  FROM access_reviews r LEFT JOIN users u ON u.id = r.reviewer_id`;

/** The tenant's column and value: a review belongs to exactly one partner or one organization. */
const tenantWhere = (tenant: ReviewTenant): [string, string] =>
  tenant.kind === 'partner' ? ['r.partner_id = ?', tenant.partnerId] : ['r.org_id = ?', tenant.orgId];

export function listReviews(db: Db, tenant: ReviewTenant): ReviewRow[] {
  const [where, value] = tenantWhere(tenant);
  return statement(db, `${REVIEW_SELECT} WHERE ${where} ORDER BY r.created_at, r.id`).all(
    value,
  ) as ReviewRow[];
}

/** The review if it belongs to the tenant; a review of another tenant does not exist for the caller. */
export function reviewInTenant(db: Db, tenant: ReviewTenant, id: string): ReviewRow | undefined {
  const [where, value] = tenantWhere(tenant);
  return statement(db, `${REVIEW_SELECT} WHERE r.id = ? AND ${where}`).get(id, value) as
    ReviewRow | undefined;
}

export function reviewById(db: Db, id: string): ReviewRow | undefined {
  return statement(db, `${REVIEW_SELECT} WHERE r.id = ?`).get(id) as ReviewRow | undefined;
}

// The latest sign-in or session refresh (every refresh rotation writes a refresh_tokens row): MAX over both
// ignores whichever is null.
const ITEM_SELECT = `SELECT i.*, u.name AS user_name, u.email AS user_email,
    (SELECT MAX(t) FROM (SELECT u.last_login_at AS t
                         UNION ALL SELECT MAX(rt.created_at) FROM refresh_tokens rt WHERE rt.user_id = u.id))
      AS last_active_at
  FROM access_review_items i JOIN users u ON u.id = i.user_id`;

export function itemsOf(db: Db, reviewId: string): ItemRow[] {
  return statement(db, `${ITEM_SELECT} WHERE i.review_id = ? ORDER BY u.name COLLATE NOCASE, u.email`).all(
    reviewId,
  ) as ItemRow[];
}

export function itemOf(db: Db, reviewId: string, itemId: string): ItemRow | undefined {
  return statement(db, `${ITEM_SELECT} WHERE i.review_id = ? AND i.id = ?`).get(reviewId, itemId) as
    ItemRow | undefined;
}

/** Who holds a role in the tenant now: the partner-user or organization-user associations (spec 1). */
export function tenantMappings(db: Db, tenant: ReviewTenant): Mapping[] {
  return (
    tenant.kind === 'partner'
      ? statement(
          db,
          `SELECT a.user_id, a.role_id, r.name AS role_name FROM partner_users a JOIN roles r ON r.id = a.role_id
            WHERE a.partner_id = ?`,
        ).all(tenant.partnerId)
      : statement(
          db,
          `SELECT a.user_id, a.role_id, r.name AS role_name FROM organization_users a
             JOIN roles r ON r.id = a.role_id WHERE a.org_id = ?`,
        ).all(tenant.orgId)
  ) as Mapping[];
}

/** Whether the user holds an association in the tenant (and, with `active`, can sign in). */
export function isMember(
  db: Db,
  tenant: ReviewTenant,
  userId: string,
  options: { active: boolean },
): boolean {
  const sql =
    tenant.kind === 'partner'
      ? `SELECT u.status FROM partner_users a JOIN users u ON u.id = a.user_id
          WHERE a.partner_id = ? AND a.user_id = ?`
      : `SELECT u.status FROM organization_users a JOIN users u ON u.id = a.user_id
          WHERE a.org_id = ? AND a.user_id = ?`;
  const row = statement(db, sql).get(tenant.kind === 'partner' ? tenant.partnerId : tenant.orgId, userId) as
    { status: string } | undefined;
  return row !== undefined && (!options.active || row.status === 'active');
}

export function insertReview(
  db: Db,
  review: {
    id: string;
    tenant: ReviewTenant;
    name: string;
    description: string | null;
    reviewerId: string;
    dueDate: string | null;
    reminderSentAt: string | null;
    createdBy: string;
    at: string;
  },
): void {
  statement(
    db,
    `INSERT INTO access_reviews (id, partner_id, org_id, name, description, reviewer_id, due_date, reminder_sent_at,
       created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    review.id,
    review.tenant.kind === 'partner' ? review.tenant.partnerId : null,
    review.tenant.kind === 'organization' ? review.tenant.orgId : null,
    review.name,
    review.description,
    review.reviewerId,
    review.dueDate,
    review.reminderSentAt,
    review.createdBy,
    review.at,
    review.at,
  );
}

export function insertItem(
  db: Db,
  item: { id: string; reviewId: string; mapping: Mapping; permissions: string[]; at: string },
): void {
  statement(
    db,
    `INSERT INTO access_review_items (id, review_id, user_id, role_id, role_name, permissions, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    item.id,
    item.reviewId,
    item.mapping.user_id,
    item.mapping.role_id,
    item.mapping.role_name,
    JSON.stringify(item.permissions),
    item.at,
  );
}

/** Records a decision; `pending` clears who decided and when. */
export function setDecision(
  db: Db,
  itemId: string,
  change: { decision: AccessReviewDecision; notes: string | null | undefined; by: string; at: string },
): void {
  const decided = change.decision !== 'pending';
  statement(
    db,
    `UPDATE access_review_items SET decision = ?, notes = CASE WHEN ? THEN ? ELSE notes END,
       reviewed_at = ?, reviewed_by = ? WHERE id = ?`,
  ).run(
    change.decision,
    change.notes === undefined ? 0 : 1,
    change.notes ?? null,
    decided ? change.at : null,
    decided ? change.by : null,
    itemId,
  );
}

/** pending -> in_progress on the first decision (spec 1 state table); touches updated_at either way. */
export function markDecided(db: Db, reviewId: string, started: boolean, at: string): void {
  statement(
    db,
    `UPDATE access_reviews SET updated_at = ?,
       status = CASE WHEN ? AND status = 'pending' THEN 'in_progress' ELSE status END WHERE id = ?`,
  ).run(at, started ? 1 : 0, reviewId);
}

export function pendingItemCount(db: Db, reviewId: string): number {
  return (
    statement(
      db,
      "SELECT COUNT(*) AS n FROM access_review_items WHERE review_id = ? AND decision = 'pending'",
    ).get(reviewId) as { n: number }
  ).n;
}

export function revokedItems(db: Db, reviewId: string): Array<{ user_id: string; user_email: string }> {
  return statement(
    db,
    `SELECT i.user_id, u.email AS user_email FROM access_review_items i JOIN users u ON u.id = i.user_id
      WHERE i.review_id = ? AND i.decision = 'revoked' ORDER BY i.created_at, i.id`,
  ).all(reviewId) as Array<{ user_id: string; user_email: string }>;
}

/** Completes the review unless it already is; false when another completion won. */
export function markCompleted(db: Db, reviewId: string, revokedCount: number, at: string): boolean {
  return (
    statement(
      db,
      `UPDATE access_reviews SET status = 'completed', completed_at = ?, revoked_count = ?, updated_at = ?
        WHERE id = ? AND status <> 'completed'`,
    ).run(at, revokedCount, at, reviewId).changes === 1
  );
}

/** Reviews whose due date is within `horizon` (ISO time) and whose reminder has not gone out. */
export function reviewsDueForReminder(db: Db, horizon: string): ReviewRow[] {
  return statement(
    db,
    `${REVIEW_SELECT} WHERE r.reminder_sent_at IS NULL AND r.completed_at IS NULL AND r.due_date IS NOT NULL
       AND r.due_date <= ? ORDER BY r.due_date`,
  ).all(horizon) as ReviewRow[];
}

/** Claims the reminder of one review; false when it was already claimed (the email goes out once). */
export function claimReminder(db: Db, reviewId: string, at: string): boolean {
  return (
    statement(
      db,
      'UPDATE access_reviews SET reminder_sent_at = ? WHERE id = ? AND reminder_sent_at IS NULL',
    ).run(at, reviewId).changes === 1
  );
}

/** The name of the review's partner or organization (emails name where the review runs). */
export function tenantNameOf(db: Db, review: { partner_id: string | null; org_id: string | null }): string {
  const row = (
    review.partner_id
      ? statement(db, 'SELECT name FROM partners WHERE id = ?').get(review.partner_id)
      : statement(db, 'SELECT name FROM organizations WHERE id = ?').get(review.org_id)
  ) as { name: string } | undefined;
  return row?.name ?? 'Gatehouse';
}
