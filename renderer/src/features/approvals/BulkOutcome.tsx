import { Alert } from '../../ui/basics';
import { SmallButton } from '../../ui/SmallButton';
import { Link } from '../../lib/router';
import type { BulkSummary } from './bulk-decide';
import { requestPath, subjectOf } from './format';

// What a bulk decision did, in one line, then each request that was skipped or refused and why.

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function headline(s: BulkSummary): string {
  const verb = s.decision === 'approve' ? 'approved' : 'denied';
  const sent =
    s.sent === 0
      ? ''
      : s.sent === s.done
        ? ' and sent to their devices'
        : ` (${s.sent} sent to their devices)`;
  const parts = [`${plural(s.done, 'request', 'requests')} ${verb}${sent}`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  if (s.failed) parts.push(`${s.failed} not ${verb}`);
  return `${parts.join(', ')}.`;
}

export function BulkOutcome({ summary, onDismiss }: { summary: BulkSummary; onDismiss: () => void }) {
  const notes = summary.lines.filter((l) => l.kind !== 'done');
  const tone = summary.failed > 0 ? 'warning' : summary.done > 0 ? 'success' : 'info';
  return (
    <Alert tone={tone} testId="bulk-outcome">
      <div className="ap-bulk-outcome">
        <div className="ap-bulk-head">
          <strong data-testid="bulk-headline">{headline(summary)}</strong>
          <SmallButton tone="ghost" icon="close" iconSize={13} aria-label="Dismiss" onClick={onDismiss} />
        </div>
        {notes.length > 0 ? (
          <ul className="ap-bulk-notes">
            {notes.map((l) => (
              <li key={l.request.id} data-testid="bulk-note" data-kind={l.kind}>
                <Link to={requestPath(l.request.id)}>
                  {subjectOf(l.request)} on {l.request.deviceHostname}
                </Link>
                : {l.text}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Alert>
  );
}
