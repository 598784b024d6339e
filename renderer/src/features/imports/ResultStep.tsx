import { useState } from 'react';
import { saveFile } from '../../lib/clipboard';
import { formatCount } from '../../lib/format';
import { ActionError, Button, ButtonLink, Icon, ProgressTrack, Segmented } from '../../ui';
import { toCsv } from './csv';
import type { Outcome, RowOutcome } from './model';
import { fileLine, LineTable } from './parts';
import type { CommitRun, Progress } from './run';
import type { Source } from './SourceStep';

// Step 4: the commit, request by request with a progress bar, then what happened to every row: the four
// counts, the rows themselves (failed first to hand), and the failed rows as a CSV with the reason beside the
// file's own columns, ready to fix and import again.

const ROW_HEIGHT = 38;
const LABELS: Record<Outcome, string> = {
  imported: 'Imported',
  updated: 'Updated',
  skipped: 'Skipped',
  failed: 'Failed',
};
type Filter = 'failed' | 'all';

export function ResultStep({
  source,
  progress,
  result,
  onAgain,
}: {
  source: Source;
  progress: Progress;
  /** Null while the commit runs. */
  result: CommitRun | null;
  onAgain: () => void;
}) {
  if (!result)
    return (
      <div className="im-running" data-testid="import-running">
        <strong>
          Sending rows: {formatCount(progress.done)} of {formatCount(progress.total)}…
        </strong>
        <div className="im-bar">
          <ProgressTrack value={progress.done} max={progress.total} label="Rows committed" />
        </div>
        <span className="muted small">
          Rows go in requests of up to 1000; each request is written as a whole. Keep this page open until it
          ends.
        </span>
      </div>
    );
  return <Summary source={source} {...result} onAgain={onAgain} />;
}

function Summary({
  source,
  outcomes,
  stopped,
  onAgain,
}: {
  source: Source;
  outcomes: RowOutcome[];
  stopped: unknown;
  onAgain: () => void;
}) {
  const count = (o: Outcome) => outcomes.filter((r) => r.outcome === o).length;
  const failed = outcomes.filter((r) => r.outcome === 'failed');
  const [filter, setFilter] = useState<Filter>(failed.length > 0 ? 'failed' : 'all');
  const shown = filter === 'failed' ? failed : outcomes;

  const download = () => {
    const { headers, rows } = source.csv;
    const data = failed.map((f) => [
      ...(rows[f.index] ?? []),
      String(fileLine(f.index)),
      f.code ?? '',
      f.message,
    ]);
    const base = source.name.replace(/\.(csv|txt)$/i, '') || 'import';
    saveFile(
      [toCsv([...headers, 'line', 'error_code', 'error'], data)],
      `${base}-failed-rows.csv`,
      'text/csv;charset=utf-8',
    );
  };

  return (
    <div className="im-result" data-testid="import-result">
      <ActionError error={stopped} testId="import-stopped" />
      <div className="im-tiles">
        {(['imported', 'updated', 'skipped', 'failed'] as const).map((o) => (
          <div
            key={o}
            className={`ui-panel im-tile im-out-${o}`}
            data-testid={`import-result-${o}`}
            data-count={count(o)}
          >
            <strong>{formatCount(count(o))}</strong>
            <span>{LABELS[o].toLowerCase()}</span>
          </div>
        ))}
      </div>
      <div className="im-result-bar">
        <Segmented<Filter>
          label="Rows shown"
          value={filter}
          onChange={setFilter}
          testId="import-result-filter"
          small
          options={{
            failed: `Failed (${formatCount(failed.length)})`,
            all: `All rows (${formatCount(outcomes.length)})`,
          }}
        />
        <Button
          tone="secondary"
          icon="download"
          disabled={failed.length === 0}
          onClick={download}
          testId="import-download-failed"
        >
          Failed rows as CSV
        </Button>
      </div>
      {shown.length === 0 ? (
        <p className="im-all-well" data-testid="import-no-failures">
          <Icon name="check" /> No row failed.
        </p>
      ) : (
        <LineTable
          spec={{ label: 'Import result', rowHeight: ROW_HEIGHT, className: 'im-out-row' }}
          rows={shown}
          resetKey={filter}
          head={
            <>
              <div role="columnheader">Line</div>
              <div role="columnheader">Result</div>
              <div role="columnheader">Code</div>
              <div role="columnheader">What happened</div>
            </>
          }
          renderRow={(r, row) => (
            <div {...row} className="im-out-row" data-testid="import-result-row" data-outcome={r.outcome}>
              <div role="cell" className="muted mono">
                {fileLine(r.index)}
              </div>
              <div role="cell">
                <span className={`im-badge im-out-${r.outcome}`}>{LABELS[r.outcome]}</span>
              </div>
              <div role="cell" className="mono small muted">
                {r.code ?? ''}
              </div>
              <div role="cell" className="ellipsis" title={r.message}>
                {r.message}
              </div>
            </div>
          )}
        />
      )}
      <div className="im-actions">
        <Button tone="secondary" icon="refresh" onClick={onAgain} testId="import-again">
          Import another file
        </Button>
        {/* Both imports write the tenants' records (organizations, sites, contacts): the result is seen there. */}
        <ButtonLink to="/tenants" tone="primary" testId="import-done-link">
          Open Tenants
        </ButtonLink>
      </div>
    </div>
  );
}
