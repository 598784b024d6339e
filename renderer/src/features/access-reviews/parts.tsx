import { useState } from 'react';
import type {
  AccessReviewDecision,
  AccessReviewStatus,
  AccessReviewSummary,
} from '../../../../server/contract';
import { formatDate, formatDateTime } from '../../lib/format';
import { LabelPill, ProgressTrack, type Tone } from '../../ui';
import { DECISION_LABEL, groupLabel, groupPermissions, progressPercent, STATUS_LABEL } from './model';

// Small pieces the review screens share: status and decision pills, the progress bar, the due date, and the
// permission chips of a person's role.

// Tones live here, with the kit's pills, so model.ts stays free of the kit (it is unit-tested under Node).
const STATUS_TONE: Record<AccessReviewStatus, Tone> = {
  pending: 'muted',
  in_progress: 'warn',
  completed: 'ok',
};
const DECISION_TONE: Record<AccessReviewDecision, Tone> = {
  pending: 'muted',
  approved: 'ok',
  revoked: 'bad',
};

export function ReviewStatusPill({ status }: { status: AccessReviewStatus }) {
  return <LabelPill value={status} tones={STATUS_TONE} labels={STATUS_LABEL} testId="ar-status" />;
}

export function DecisionPill({ decision }: { decision: AccessReviewDecision }) {
  return <LabelPill value={decision} tones={DECISION_TONE} labels={DECISION_LABEL} testId="ar-decision" />;
}

/** Decided of all, as a bar and in words. */
export function ProgressBar({ review }: { review: AccessReviewSummary }) {
  return (
    <div className="ar-progress" data-testid="ar-progress" data-decided={review.decidedCount}>
      <ProgressTrack
        value={review.decidedCount}
        max={review.itemCount}
        label="Decisions made"
        done={progressPercent(review) === 100}
      />
      <span className="ar-progress-text">
        {review.decidedCount} / {review.itemCount}
      </span>
    </div>
  );
}

export function DueDate({ review }: { review: AccessReviewSummary }) {
  if (!review.dueDate) return <span className="muted">No due date</span>;
  return (
    <span
      className={review.overdue ? 'ar-overdue' : undefined}
      title={formatDateTime(review.dueDate)}
      data-testid="ar-due"
      data-overdue={review.overdue ? 'true' : 'false'}
    >
      {formatDate(review.dueDate)}
      {review.overdue ? ' · overdue' : ''}
    </span>
  );
}

const CHIPS_FOLDED = 3;

/** What the role lets the person do: one chip per resource, the first few unless opened. */
export function PermissionChips({ permissions }: { permissions: readonly string[] }) {
  const [open, setOpen] = useState(false);
  const groups = groupPermissions(permissions);
  if (groups.length === 0) return <span className="muted small">Nothing</span>;
  const shown = open ? groups : groups.slice(0, CHIPS_FOLDED);
  const hidden = groups.length - shown.length;
  return (
    <div className="ar-chips" data-testid="ar-permissions">
      {shown.map((group) => (
        <span
          key={group.resource}
          className={`ar-chip${group.resource === '*' || group.actions.includes('*') ? ' wide' : ''}`}
          title={group.actions.map((a) => `${group.resource}:${a}`).join(', ')}
        >
          {groupLabel(group)}
        </span>
      ))}
      {hidden > 0 || open ? (
        <button
          type="button"
          className="ar-chip-more"
          onClick={() => setOpen(!open)}
          data-testid="ar-permissions-more"
          aria-expanded={open}
        >
          {open ? 'Less' : `+${hidden} more`}
        </button>
      ) : null}
    </div>
  );
}
