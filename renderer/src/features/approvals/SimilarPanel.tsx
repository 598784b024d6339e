import type { ElevationRequestDetail } from '../../../../server/contract';
import { Card } from '../../ui/basics';
import { SmallButton } from '../../ui/SmallButton';
import { Link } from '../../lib/router';
import { useIdSet, useNow } from '../../lib/hooks';
import { useApiQuery } from '../../lib/query';
import { approvalsApi } from './api';
import { BulkOutcome } from './BulkOutcome';
import type { BulkTarget } from './bulk-decide';
import { useBulkRun } from './useBulkRun';
import { DecideSimilarDialog } from './DecideSimilarDialog';
import { elapsedText, msSince, requestPath } from './format';
import { useElevationEvents } from './live';
import { RiskPill } from './parts';
import { useDebouncedCallback } from '../../lib/hooks';

// "Similar pending (N)" on a pending request's page: the other pending requests for the same file (hash) from
// the same signer, to approve or deny together with this one. Hidden when there are none.

export function SimilarPanel({
  detail,
  canApprove,
  onDecided,
}: {
  detail: ElevationRequestDetail;
  canApprove: boolean;
  /** This request was decided with the others: re-read it. */
  onDecided: () => void;
}) {
  const read = approvalsApi.similar(detail.request.id);
  const similar = useApiQuery(read.key, read.fetch);
  const now = useNow(5000);
  const { ids: unchecked, toggle, set: setUnchecked } = useIdSet();
  const run = useBulkRun<'approve' | 'deny'>(() => {
    setUnchecked(new Set());
    similar.reload();
    onDecided();
  });
  const reloadSoon = useDebouncedCallback(similar.reload, 500);
  useElevationEvents(reloadSoon);

  const items = similar.data?.items ?? [];
  if (items.length === 0 && !run.summary) return null;
  const chosen = items.filter((i) => !unchecked.has(i.request.id));
  // This request goes with its look-alikes while it still waits; once decided, only the others remain.
  const self: BulkTarget[] =
    detail.request.status === 'pending' ? [{ request: detail.request, stepUp: detail.stepUp }] : [];
  const targets = [...self, ...chosen];
  const total = similar.data?.total ?? items.length;

  return (
    <Card title={`Similar pending (${total})`} icon="approvals" testId="similar-panel">
      {run.summary ? <BulkOutcome summary={run.summary} onDismiss={run.dismiss} /> : null}
      {items.length > 0 ? (
        <>
          <p className="muted small">Same file and signer, waiting on other devices.</p>
          <ul className="ap-similar-list">
            {items.map(({ request: r }) => (
              <li key={r.id} className="ap-similar-item" data-testid="similar-item">
                <input
                  type="checkbox"
                  checked={!unchecked.has(r.id)}
                  onChange={() => toggle(r.id)}
                  aria-label={`Include the request on ${r.deviceHostname}`}
                  disabled={!canApprove}
                />
                <span className="ap-two">
                  <Link to={requestPath(r.id)} className="ap-strong-link">
                    {r.deviceHostname}
                  </Link>
                  <span className="ap-sub">
                    {r.orgName}
                    {r.subjectUsername ? ` · ${r.subjectUsername}` : ''} · waiting{' '}
                    {elapsedText(msSince(r.requestedAt, now))}
                  </span>
                </span>
                <RiskPill risk={r.riskLevel} />
              </li>
            ))}
          </ul>
          {total > items.length ? (
            <p className="muted small">
              The first {items.length} of {total} are listed.
            </p>
          ) : null}
          {canApprove ? (
            <div className="ap-similar-actions">
              <SmallButton
                tone="primary"
                icon="check"
                onClick={() => run.open('approve')}
                disabled={targets.length === 0 || (self.length > 0 && detail.stepUp.selfApproval)}
                testId="similar-approve"
              >
                Approve all {targets.length}
              </SmallButton>
              <SmallButton
                tone="danger"
                onClick={() => run.open('deny')}
                disabled={targets.length === 0}
                testId="similar-deny"
              >
                Deny all {targets.length}
              </SmallButton>
            </div>
          ) : null}
        </>
      ) : null}
      {run.pending ? <DecideSimilarDialog decision={run.pending} targets={targets} {...run.props} /> : null}
    </Card>
  );
}
