import type {
  AccessReviewDetail,
  AccessReviewItem,
  AccessReviewSummary,
} from '../../contract/access-reviews';
import type { ItemRow, ReviewRow } from './store';

// Rows as the API shows them (spec 1 payloads, camelCase), with what is computed at read time: overdue.

export function toSummary(row: ReviewRow, now = Date.now()): AccessReviewSummary {
  return {
    id: row.id,
    partnerId: row.partner_id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    status: row.status,
    reviewerId: row.reviewer_id,
    reviewerName: row.reviewer_name,
    dueDate: row.due_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    overdue: row.status !== 'completed' && row.due_date !== null && Date.parse(row.due_date) < now,
    itemCount: row.item_count,
    decidedCount: row.decided_count,
    revokedCount: row.revoked_count,
  };
}

export function toItem(row: ItemRow): AccessReviewItem {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    userEmail: row.user_email,
    lastActiveAt: row.last_active_at,
    roleId: row.role_id,
    roleName: row.role_name,
    decision: row.decision,
    notes: row.notes,
    reviewedAt: row.reviewed_at,
    reviewedBy: row.reviewed_by,
    permissions: JSON.parse(row.permissions) as string[],
  };
}

export function toDetail(row: ReviewRow, items: ItemRow[]): AccessReviewDetail {
  return { ...toSummary(row), items: items.map(toItem) };
}
