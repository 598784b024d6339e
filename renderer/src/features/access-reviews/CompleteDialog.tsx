import type { AccessReviewDetail, AccessReviewItem } from '../../../../server/contract';
import { plural } from '../../lib/format';
import { ActionError, ConfirmDialog, type FormAction } from '../../ui';

// Completing asks first and names every person who will lose access: their association goes, their sessions
// end and their open consoles close at once; nothing of it can be undone from here (they would be invited again).

export function CompleteDialog({
  review,
  revoked,
  action,
  onConfirm,
  onCancel,
}: {
  review: AccessReviewDetail;
  revoked: AccessReviewItem[];
  action: FormAction;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open
      title={`Complete “${review.name}”`}
      confirmLabel={
        revoked.length > 0
          ? `Complete and remove ${plural(revoked.length, 'person', 'people')}`
          : 'Complete review'
      }
      busy={action.busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
      testId="ar-complete-dialog"
    >
      {revoked.length === 0 ? (
        <p>Everyone in this review keeps their access. The review becomes a read-only record.</p>
      ) : (
        <>
          <p>
            {plural(revoked.length, 'person loses', 'people lose')} access now: their role here is removed,
            they are signed out everywhere and any console they have open closes.
          </p>
          <ul className="ar-loses" data-testid="ar-loses">
            {revoked.map((item) => (
              <li key={item.id} data-testid="ar-loses-person">
                <span className="ar-loses-name">{item.userName}</span>
                <span className="muted">{item.userEmail}</span>
                <span className="ar-loses-role">{item.roleName}</span>
              </li>
            ))}
          </ul>
          <p className="muted small">
            {plural(review.itemCount - revoked.length, 'other person keeps', 'others keep')} their access. To
            give someone access back later, invite them again.
          </p>
        </>
      )}
      <ActionError error={action.error} />
    </ConfirmDialog>
  );
}
