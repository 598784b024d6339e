import { useDocumentTitle } from '../../lib/hooks';
import { usePathname } from '../../lib/router';
import { useScope } from '../../lib/session';
import { AdminPage, EmptyState } from '../../ui';
import { useReviewPushes } from './live';
import { ReviewListPage } from './ReviewListPage';
import { ReviewPage } from './ReviewPage';
import './access-reviews.css';

// /access-reviews       the tenant's reviews with their progress and due dates, and the create dialog
// /access-reviews/<id>  one review: each person, their role and what it allows, decisions, completion
// Review pushes keep the cached reads of both current while either is open.

export function AccessReviewsSection() {
  useReviewPushes();
  const scope = useScope();
  const id = decodeURIComponent(
    usePathname().slice('/access-reviews'.length).replace(/^\/+/, '').split('/')[0] ?? '',
  );
  if (scope === 'system') return <PlatformNotice />;
  return id ? <ReviewPage key={id} reviewId={id} /> : <ReviewListPage />;
}

/** Reviews are run inside a partner or an organization; the platform itself has none (spec 1). */
function PlatformNotice() {
  useDocumentTitle('Access reviews');
  return (
    <AdminPage head={{ title: 'Access reviews' }}>
      <EmptyState
        icon="reviews"
        title="Access reviews run inside a partner or an organization"
        testId="ar-platform"
      >
        A review asks a partner or an organization whether each of its people still needs the access their
        role gives them. Platform administrators belong to neither, so there is nothing to review from here:
        sign in as an administrator of the partner or organization to run one.
      </EmptyState>
    </AdminPage>
  );
}
