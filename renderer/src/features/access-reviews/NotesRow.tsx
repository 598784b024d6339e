import { useState } from 'react';
import type { AccessReviewDetail, AccessReviewItem } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { formatDateTime } from '../../lib/format';
import { queryClient } from '../../lib/query';
import { ActionError, SmallButton } from '../../ui';
import { reviewsApi, reviewsKeys } from './api';
import { groupPermissions } from './model';

// The opened row under a person: every permission of their role, grouped by resource, and the reviewer's notes
// (kept with the decision; saving notes keeps the decision as it is).

export function NotesRow({
  review,
  item,
  editable,
  colSpan,
  onClose,
}: {
  review: AccessReviewDetail;
  item: AccessReviewItem;
  editable: boolean;
  colSpan: number;
  onClose: () => void;
}) {
  const [notes, setNotes] = useState(item.notes ?? '');
  const save = useAsyncAction();
  const groups = groupPermissions(item.permissions);
  const submit = () =>
    void save.run(async () => {
      await reviewsApi.decide(review.id, item.id, { decision: item.decision, notes: notes.trim() || null });
      await queryClient.invalidateQueries({ queryKey: reviewsKeys.detail(review.id) });
      onClose();
    });
  return (
    <tr className="ar-notes-row" data-testid="ar-notes-row">
      <td colSpan={colSpan}>
        <div className="ar-notes">
          <div className="ar-notes-perms">
            <div className="ar-notes-label">{item.roleName} allows</div>
            {groups.length === 0 ? <span className="muted small">Nothing</span> : null}
            <dl className="ar-perm-list">
              {groups.map((group) => (
                <div key={group.resource}>
                  <dt>{group.resource === '*' ? 'Everything' : group.resource}</dt>
                  <dd>{group.actions.join(', ')}</dd>
                </div>
              ))}
            </dl>
            {item.reviewedAt ? (
              <div className="muted small">Decided {formatDateTime(item.reviewedAt)}</div>
            ) : null}
          </div>
          <div className="ar-notes-edit">
            <label className="ar-notes-label" htmlFor={`ar-notes-${item.id}`}>
              Notes
            </label>
            <textarea
              id={`ar-notes-${item.id}`}
              data-testid="ar-notes"
              rows={3}
              maxLength={2000}
              value={notes}
              readOnly={!editable}
              placeholder={editable ? 'Why they keep or lose access (kept with the review)' : 'No notes'}
              onChange={(e) => setNotes(e.target.value)}
            />
            <ActionError error={save.error} />
            {editable ? (
              <div className="ar-notes-actions">
                <SmallButton tone="ghost" onClick={onClose}>
                  Close
                </SmallButton>
                <SmallButton tone="primary" disabled={save.busy} onClick={submit} testId="ar-notes-save">
                  {save.busy ? 'Saving…' : 'Save notes'}
                </SmallButton>
              </div>
            ) : null}
          </div>
        </div>
      </td>
    </tr>
  );
}
