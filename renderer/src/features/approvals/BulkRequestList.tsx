import type { ElevationRequest } from '../../../../server/contract';
import { RISK_LABEL, subjectOf } from './format';

// The requests a bulk decision covers, one line each (what is asking, on which device of which organization), as
// the "Deny selected" and "Approve/Deny similar" dialogs list them above their fields.

export function BulkRequestList({
  requests,
  testId,
  limit,
  withRisk = false,
}: {
  requests: ElevationRequest[];
  testId: string;
  /** Lines shown at most; the rest is counted in a last "and N more" line. */
  limit?: number;
  /** Add each request's risk (the similar list mixes risks; a selection is already seen in its rows). */
  withRisk?: boolean;
}) {
  const shown = limit === undefined ? requests : requests.slice(0, limit);
  const more = requests.length - shown.length;
  return (
    <ul className="ap-bulk-list" data-testid={testId}>
      {shown.map((r) => (
        <li key={r.id}>
          <span className="ap-strong">{subjectOf(r)}</span>
          <span className="muted">
            {' '}
            on {r.deviceHostname} · {r.orgName}
            {withRisk ? ` · ${RISK_LABEL[r.riskLevel]} risk` : null}
          </span>
        </li>
      ))}
      {more > 0 ? <li className="muted">and {more} more</li> : null}
    </ul>
  );
}
