import { useState } from 'react';
import type { AccessReviewDetail } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { formatDateTime, plural } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { ActionError, Alert, DetailPlaceholder, PageHeader, SmallButton } from '../../ui';
import { reviewsApi, reviewsKeys, useReview } from './api';
import { CompleteDialog } from './CompleteDialog';
import { ItemsTable } from './ItemsTable';
import { useCanWriteReviews } from './access';
import { DueDate, ProgressBar, ReviewStatusPill } from './parts';

// /access-reviews/<id>: the review's facts and progress, one row per person to decide (ItemsTable), and the
// completion, which asks first and names everyone who will lose access. A completed review is read-only.

const BACK = { to: '/access-reviews', label: 'Access reviews' };

export function ReviewPage({ reviewId }: { reviewId: string }) {
  const review = useReview(reviewId);
  useDocumentTitle(review.data?.name ?? 'Access review');
  if (!review.data)
    return (
      <DetailPlaceholder
        className="adm ar-page"
        title="Access review"
        back={BACK}
        of={review}
        loading="Loading the review…"
        forbidden={{
          title: 'This review is not available to you',
          text: 'Reviews need the users:read permission.',
        }}
        notFound={{
          icon: 'reviews',
          title: 'No such access review',
          testId: 'ar-not-found',
          text: 'It does not exist, or it belongs to another partner or organization.',
        }}
      />
    );
  return <ReviewScreen review={review.data} />;
}

function ReviewScreen({ review }: { review: AccessReviewDetail }) {
  const canWrite = useCanWriteReviews();
  const [confirming, setConfirming] = useState(false);
  const complete = useAsyncAction();
  const completed = review.status === 'completed';
  const editable = canWrite && !completed;
  const undecided = review.itemCount - review.decidedCount;
  const revoked = review.items.filter((i) => i.decision === 'revoked');

  const finish = () =>
    void complete.run(async () => {
      await reviewsApi.complete(review.id);
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: reviewsKeys.all });
    });

  const completeButton = editable ? (
    <SmallButton
      tone="primary"
      icon="check"
      disabled={undecided > 0}
      title={undecided > 0 ? `${plural(undecided, 'person', 'people')} still undecided` : undefined}
      onClick={() => {
        complete.reset();
        setConfirming(true);
      }}
      testId="ar-complete"
    >
      Complete review
    </SmallButton>
  ) : null;

  return (
    <div className="page adm ar-page" data-testid="ar-review" data-status={review.status}>
      <PageHeader
        title={review.name}
        back={BACK}
        sub={review.description ?? undefined}
        actions={completeButton}
      />
      <div className="ar-facts">
        <ReviewStatusPill status={review.status} />
        <span className="ar-fact">
          <span className="ar-fact-label">Reviewer</span>
          {review.reviewerName ?? '—'}
        </span>
        <span className="ar-fact">
          <span className="ar-fact-label">Due</span>
          <DueDate review={review} />
        </span>
        <span className="ar-fact ar-fact-progress">
          <span className="ar-fact-label">Decided</span>
          <ProgressBar review={review} />
        </span>
        {editable && undecided > 0 ? (
          <span className="muted small" data-testid="ar-undecided">
            {plural(undecided, 'person', 'people')} still to decide before completing
          </span>
        ) : null}
      </div>
      {completed ? (
        <Alert tone={review.revokedCount ? 'warning' : 'success'} testId="ar-completed">
          Completed {review.completedAt ? formatDateTime(review.completedAt) : ''}:{' '}
          {review.revokedCount
            ? `${plural(review.revokedCount, 'person', 'people')} lost access, and their sessions ended at once.`
            : 'everyone kept their access.'}{' '}
          The review is now a read-only record.
        </Alert>
      ) : null}
      {!canWrite && !completed ? (
        <p className="muted small">You can read this review; deciding it needs the users:write permission.</p>
      ) : null}
      <ActionError error={confirming ? null : complete.error} />
      <ItemsTable review={review} editable={editable} />
      {confirming ? (
        <CompleteDialog
          review={review}
          revoked={revoked}
          action={complete}
          onConfirm={finish}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </div>
  );
}
