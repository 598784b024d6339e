import type { AccessReviewSummary } from '../../../../server/contract';
import { formatDate, formatDateTime } from '../../lib/format';
import { useDialog, useDocumentTitle } from '../../lib/hooks';
import { Link, navigate } from '../../lib/router';
import { AdminPage, AdminTable, EmptyState, Icon, LinkRow, LoadState, CreateButton } from '../../ui';
import { useReviewList } from './api';
import { CreateReviewDialog } from './CreateReviewDialog';
import { useCanWriteReviews } from './access';
import { DueDate, ProgressBar, ReviewStatusPill } from './parts';

// /access-reviews: every review of the tenant, oldest first as the server lists them, with who reviews it, its
// state, how far it got (decided of all, as a bar) and when it is due (overdue in red), and the create dialog.

const FORBIDDEN = {
  title: 'Access reviews are not available to you',
  text: 'Reviews need the users:read permission and, for partner technicians, access to every organization of the partner.',
};

export function ReviewListPage() {
  useDocumentTitle('Access reviews');
  const canWrite = useCanWriteReviews();
  const creating = useDialog<true>();
  const list = useReviewList();
  const rows = list.data?.data;

  const createButton = (
    <CreateButton allowed={canWrite} onClick={() => creating.open(true)} testId="ar-create">
      New review
    </CreateButton>
  );

  return (
    <AdminPage
      className="ar-page"
      head={{
        title: 'Access reviews',
        sub: 'Ask, person by person, whether everyone still needs the access their role gives them, and remove those who do not in one step.',
        actions: createButton,
      }}
    >
      {!rows ? (
        <LoadState of={list} loading="Loading reviews…" forbidden={FORBIDDEN} />
      ) : rows.length === 0 ? (
        <EmptyState icon="reviews" title="No access reviews yet" testId="ar-empty" action={createButton}>
          A review lists everyone who holds a role here, with what the role lets them do and when they were
          last active. Approve who still needs it, revoke who does not; completing the review removes them at
          once.
        </EmptyState>
      ) : (
        <AdminTable
          className="ar-table"
          testId="ar-table"
          columns={['Review', 'Reviewer', 'Status', 'Progress', 'Due']}
        >
          {[...rows].reverse().map((review) => (
            <ReviewRow key={review.id} review={review} />
          ))}
        </AdminTable>
      )}
      {creating.value ? (
        <CreateReviewDialog {...creating.props((id: string) => navigate(`/access-reviews/${id}`))} />
      ) : null}
    </AdminPage>
  );
}

function ReviewRow({ review }: { review: AccessReviewSummary }) {
  const to = `/access-reviews/${review.id}`;
  return (
    <LinkRow to={to} testId="ar-row" name={review.name}>
      <td>
        <div className="adm-cell-main">
          <Link to={to} className="adm-cell-title" data-testid="ar-link">
            {review.name}
          </Link>
          <span className="adm-cell-sub" title={formatDateTime(review.createdAt)}>
            {review.description ? `${review.description} · ` : ''}created {formatDate(review.createdAt)}
          </span>
        </div>
      </td>
      <td className="nowrap">{review.reviewerName ?? <span className="muted">—</span>}</td>
      <td className="nowrap">
        <ReviewStatusPill status={review.status} />
      </td>
      <td>
        <ProgressBar review={review} />
      </td>
      <td className="nowrap">
        <DueDate review={review} />
      </td>
      <td className="actions">
        <Icon name="chevron" className="row-chevron" />
      </td>
    </LinkRow>
  );
}
