import { formatCount, plural } from '../../lib/format';
import { ActionError, Icon, ProgressTrack, SmallButton, Spinner } from '../../ui';
import type { ExportProgress } from './export';

// Under the log's toolbar while an export runs and after it ends: rows received against the rows promised (a
// bar), then the saved file, and a clear word when the 10,000-row cap cut it.

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ExportStrip({
  progress: p,
  onCancel,
  onDismiss,
}: {
  progress: ExportProgress;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const format = p.format.toUpperCase();
  return (
    <div
      className={`ui-panel raised au-export is-${p.state}`}
      data-testid="audit-export-status"
      data-state={p.state}
      aria-live="polite"
    >
      {p.state === 'running' ? (
        <>
          <Spinner />
          <span>
            Exporting {format}… <strong data-testid="audit-export-rows">{formatCount(p.rows)}</strong>
            {p.expected !== null ? ` of ${formatCount(p.expected)}` : ''} rows · {size(p.bytes)}
          </span>
          {p.expected ? <ProgressTrack value={p.rows} max={p.expected} /> : <span className="grow" />}
          <SmallButton tone="ghost" onClick={onCancel} testId="audit-export-cancel">
            Cancel
          </SmallButton>
        </>
      ) : (
        <>
          {p.state === 'done' ? (
            <>
              <Icon name="check" className="tone-ok" />
              <span className="au-export-text">
                Saved{' '}
                <strong className="mono" data-testid="audit-export-file">
                  {p.fileName}
                </strong>
                : <span data-testid="audit-export-rows">{plural(p.rows, 'row')}</span> ({size(p.bytes)}).
                {p.truncated ? (
                  <span className="tone-warn" data-testid="audit-export-truncated">
                    {' '}
                    Cut at the {formatCount(p.cap ?? p.rows)}-row cap: {formatCount(p.total ?? p.rows)}{' '}
                    entries match. Narrow the time range to export the rest.
                  </span>
                ) : null}
              </span>
            </>
          ) : p.state === 'cancelled' ? (
            <>
              <Icon name="close" />
              <span className="au-export-text">
                Cancelled after {plural(p.rows, 'row')}. Nothing was saved.
              </span>
            </>
          ) : (
            <div className="au-export-text">
              <ActionError error={p.error} testId="audit-export-error" />
            </div>
          )}
          <SmallButton
            tone="ghost"
            icon="close"
            aria-label="Dismiss"
            onClick={onDismiss}
            testId="audit-export-dismiss"
          />
        </>
      )}
    </div>
  );
}
