import { Fragment, useEffect, useRef, useState } from 'react';
import type { AccessReviewDecision, AccessReviewDetail, AccessReviewItem } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { formatDateTime, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { ActionError, AdminTable, Icon, SmallButton } from '../../ui';
import { reviewsApi, reviewsKeys } from './api';
import { useSelfId } from './access';
import { NotesRow } from './NotesRow';
import { DecisionPill, PermissionChips } from './parts';
import { useReviewKeys } from './useReviewKeys';

// The people of a review, one row each: who they are, their role, when they were last active, what the role lets
// them do, and the decision. Decisions are made per row or for the selected rows, by mouse or keyboard (j/k or the
// arrows move, a approves, r revokes, u resets, x selects, n opens the notes; Shift+A / Shift+R act on the
// selection). Nobody can revoke their own access (the server refuses it too).

// The toolbar's buttons that decide every selected row at once (Shift+A / Shift+R do the same).
const BULK_ACTIONS = [
  {
    decision: 'approved',
    tone: 'secondary',
    icon: 'check',
    testId: 'ar-bulk-approve',
    label: 'Approve selected',
  },
  { decision: 'revoked', tone: 'danger', icon: 'close', testId: 'ar-bulk-revoke', label: 'Revoke selected' },
] as const;

export function ItemsTable({ review, editable }: { review: AccessReviewDetail; editable: boolean }) {
  const selfId = useSelfId();
  const now = useNow(30_000);
  const act = useAsyncAction();
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notesOf, setNotesOf] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLTableRowElement>());
  const items = review.items;
  const current = items[Math.min(cursor, items.length - 1)];
  const chosen = items.filter((i) => selected.has(i.id));

  const decide = (targets: readonly AccessReviewItem[], decision: AccessReviewDecision) => {
    if (!editable) return;
    void act.run(async () => {
      for (const item of targets) {
        if (item.decision === decision) continue;
        if (decision === 'revoked' && item.userId === selfId) continue;
        await reviewsApi.decide(review.id, item.id, { decision });
      }
      await queryClient.invalidateQueries({ queryKey: reviewsKeys.detail(review.id) });
    });
  };

  /** A decision for the selected rows; the selection is done with once it is made. */
  const decideSelected = (decision: AccessReviewDecision) => {
    decide(chosen, decision);
    setSelected(new Set());
  };

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const move = (by: number) => setCursor((c) => Math.max(0, Math.min(items.length - 1, c + by)));

  // The keyboard decides; a read-only review (completed, or a reader without users:write) has nothing to drive.
  useReviewKeys({
    enabled: editable && items.length > 0,
    move,
    act: (key) => {
      if (!current) return;
      if (key === 'x') toggle(current.id);
      else if (key === 'n') setNotesOf((open) => (open === current.id ? null : current.id));
      else if (key === 'A') decideSelected('approved');
      else if (key === 'R') decideSelected('revoked');
      else decide([current], key === 'a' ? 'approved' : key === 'r' ? 'revoked' : 'pending');
    },
  });

  useEffect(() => {
    if (current) rows.current.get(current.id)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const allSelected = items.length > 0 && chosen.length === items.length;

  return (
    <div className="ar-items" data-testid="ar-items">
      {editable ? (
        <div className="adm-toolbar ar-toolbar">
          <label className="ar-select-all">
            <input
              type="checkbox"
              checked={allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
              data-testid="ar-select-all"
            />
            {chosen.length > 0 ? `${chosen.length} selected` : 'Select all'}
          </label>
          {BULK_ACTIONS.map((b) => (
            <SmallButton
              key={b.decision}
              tone={b.tone}
              icon={b.icon}
              disabled={chosen.length === 0 || act.busy}
              onClick={() => decideSelected(b.decision)}
              testId={b.testId}
            >
              {b.label}
            </SmallButton>
          ))}
          <span className="grow" />
          <span className="ar-keys" data-testid="ar-keys">
            <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve · <kbd>r</kbd> revoke · <kbd>u</kbd> reset ·{' '}
            <kbd>x</kbd> select · <kbd>n</kbd> notes · <kbd>⇧A</kbd>/<kbd>⇧R</kbd> selected
          </span>
        </div>
      ) : null}
      <ActionError error={act.error} />
      <AdminTable
        className="ar-item-table"
        testId="ar-item-table"
        columns={[
          ...(editable ? [<th key="sel" className="ar-col-select" aria-label="Select" />] : []),
          'Person',
          'Role',
          'Last active',
          'What the role allows',
          'Decision',
        ]}
      >
        {items.map((item, index) => {
          const self = item.userId === selfId;
          return (
            <Fragment key={item.id}>
              <tr
                ref={(el) => {
                  if (el) rows.current.set(item.id, el);
                  else rows.current.delete(item.id);
                }}
                className={`ar-item${index === cursor && editable ? ' cursor' : ''}${selected.has(item.id) ? ' selected' : ''}`}
                data-testid="ar-item"
                data-email={item.userEmail}
                data-item-id={item.id}
                data-decision={item.decision}
                onClick={() => setCursor(index)}
              >
                {editable ? (
                  <td className="ar-col-select">
                    <input
                      type="checkbox"
                      checked={selected.has(item.id)}
                      onChange={() => toggle(item.id)}
                      aria-label={`Select ${item.userName}`}
                      data-testid="ar-item-select"
                    />
                  </td>
                ) : null}
                <td>
                  <div className="adm-cell-main">
                    <span className="adm-cell-title">
                      {item.userName}
                      {self ? <span className="muted"> (you)</span> : null}
                    </span>
                    <span className="adm-cell-sub">{item.userEmail}</span>
                  </div>
                </td>
                <td className="nowrap">{item.roleName}</td>
                <td
                  className="nowrap"
                  title={item.lastActiveAt ? formatDateTime(item.lastActiveAt) : undefined}
                >
                  {item.lastActiveAt ? (
                    relativeTo(Math.min(Date.parse(item.lastActiveAt), now), now)
                  ) : (
                    <span className="muted">Never signed in</span>
                  )}
                </td>
                <td>
                  <PermissionChips permissions={item.permissions} />
                </td>
                <td className="nowrap">
                  <div className="ar-decision">
                    {editable ? (
                      <DecisionButtons
                        item={item}
                        self={self}
                        busy={act.busy}
                        onDecide={(decision) => decide([item], decision)}
                      />
                    ) : (
                      <DecisionPill decision={item.decision} />
                    )}
                    {item.notes ? (
                      <span className="ar-note-mark" title={item.notes}>
                        note
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="actions">
                  <SmallButton
                    tone="ghost"
                    icon="edit"
                    onClick={() => setNotesOf(notesOf === item.id ? null : item.id)}
                    testId="ar-notes-toggle"
                    aria-expanded={notesOf === item.id}
                    aria-label={`Notes on ${item.userName}`}
                    title="Notes and every permission (n)"
                  />
                </td>
              </tr>
              {notesOf === item.id ? (
                <NotesRow
                  review={review}
                  item={item}
                  editable={editable}
                  colSpan={editable ? 7 : 6}
                  onClose={() => setNotesOf(null)}
                />
              ) : null}
            </Fragment>
          );
        })}
      </AdminTable>
    </div>
  );
}

/** Keep / Revoke as one pressed-state pair (the decision is the pressed one), and a reset once decided. */
function DecisionButtons({
  item,
  self,
  busy,
  onDecide,
}: {
  item: AccessReviewItem;
  self: boolean;
  busy: boolean;
  onDecide: (decision: AccessReviewDecision) => void;
}) {
  return (
    <>
      <div className="ar-seg" role="group" aria-label={`Decision on ${item.userName}`}>
        <button
          type="button"
          className={`ar-seg-btn keep${item.decision === 'approved' ? ' on' : ''}`}
          aria-pressed={item.decision === 'approved'}
          disabled={busy}
          onClick={() => onDecide('approved')}
          data-testid="ar-approve"
        >
          <Icon name="check" size={13} />
          Keep
        </button>
        <button
          type="button"
          className={`ar-seg-btn revoke${item.decision === 'revoked' ? ' on' : ''}`}
          aria-pressed={item.decision === 'revoked'}
          disabled={busy || self}
          title={self ? 'You cannot revoke your own access' : undefined}
          onClick={() => onDecide('revoked')}
          data-testid="ar-revoke"
        >
          <Icon name="close" size={13} />
          Revoke
        </button>
      </div>
      {item.decision !== 'pending' ? (
        <SmallButton
          tone="ghost"
          icon="refresh"
          disabled={busy}
          onClick={() => onDecide('pending')}
          testId="ar-reset"
          aria-label={`Reset the decision on ${item.userName}`}
          title="Back to undecided (u)"
        />
      ) : null}
    </>
  );
}
