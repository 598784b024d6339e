import type { ElevationEvent, ElevationRequest } from '../../../../server/contract';
import { compactTime, formatDateTime, relativeTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { EVENT_LABEL, STATUS_LABEL, deciderOf, requestPath } from './format';
import { RequestStatus } from './parts';

// The request view's record of what happened: the decision in words, the timeline of its events, and earlier
// requests for the same executable.

/** "Approved by Dana", "Denied · Rule “Block unsigned”", "Expired without a decision". */
export function decisionText(r: ElevationRequest): string {
  const by = (name: string | null) => (name ? ` by ${name}` : '');
  const rule =
    r.decisionSource && r.decisionSource !== 'human'
      ? deciderOf({ ...r, approvedByName: null, deniedByName: null, revokedByName: null })
      : null;
  if (r.enforcementStatus === 'refused') return `Approval${by(r.approvedByName)} refused by the server`;
  if (r.status === 'auto_approved') return `Auto-approved${rule ? ` · ${rule}` : ''}`;
  if (r.status === 'denied')
    return r.deniedByName ? `Denied${by(r.deniedByName)}` : `Denied${rule ? ` · ${rule}` : ''}`;
  if (r.approvedByName) return `Approved${by(r.approvedByName)}`;
  if (r.decisionSource && r.decisionSource !== 'human') return `Auto-approved${rule ? ` · ${rule}` : ''}`;
  if (r.status === 'expired') return 'Expired without a decision';
  return STATUS_LABEL[r.status];
}

export function eventSummary(e: ElevationEvent): string | null {
  const d = e.details;
  for (const key of ['reason', 'refusalReason', 'error', 'revokeReason']) {
    const value = d[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

export function Timeline({ events }: { events: ElevationEvent[] }) {
  if (events.length === 0) return <p className="muted small">No events recorded yet.</p>;
  return (
    <ol className="ap-timeline" data-testid="request-timeline">
      {events.map((e) => {
        const summary = eventSummary(e);
        return (
          <li key={e.id} data-event={e.eventType}>
            <span className="ap-tl-dot" aria-hidden="true" />
            <div className="ap-tl-main">
              <div className="ap-tl-head">
                <strong>{EVENT_LABEL[e.eventType] ?? e.eventType}</strong>
                <time
                  className="muted small mono"
                  dateTime={e.occurredAt}
                  title={formatDateTime(e.occurredAt)}
                >
                  {compactTime(e.occurredAt)}
                </time>
              </div>
              <div className="ap-tl-sub">
                {e.actorName ??
                  (e.actorType === 'agent' ? 'Agent' : e.actorType === 'system' ? 'Gatehouse' : e.actorType)}
                {' · '}
                {STATUS_LABEL[e.status]}
                {e.enforcementStatus ? ` · ${e.enforcementStatus.replace(/_/g, ' ')}` : ''}
              </div>
              {summary ? <div className="ap-tl-detail">{summary}</div> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

export function History({ rows, now, what }: { rows: ElevationRequest[]; now: number; what: string }) {
  if (rows.length === 0)
    return (
      <p className="muted small" data-testid="request-history-empty">
        First time this {what} is asking in this organization.
      </p>
    );
  return (
    <ul className="ap-prior" data-testid="request-history">
      {rows.map((h) => (
        <li key={h.id}>
          <Link to={requestPath(h.id)} className="ap-prior-row" data-testid={`history-row-${h.id}`}>
            <RequestStatus status={h.status} />
            <span className="ap-prior-main">
              <span>{deciderOf(h) ?? (h.status === 'pending' ? 'Waiting for a decision' : '—')}</span>
              <span className="ap-sub">
                {h.deviceHostname}
                {h.subjectUsername ? ` · ${h.subjectUsername}` : ''}
              </span>
            </span>
            <time className="muted small" dateTime={h.requestedAt} title={formatDateTime(h.requestedAt)}>
              {relativeTime(Date.parse(h.requestedAt), now)}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}
