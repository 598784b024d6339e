import type { AuditChainProblem, AuditChainVerification, AuditRowRef } from '../../../../server/contract';
import { formatCount, formatDateTime, plural } from '../../lib/format';
import { Icon } from '../../ui';
import { problemText, rowName } from './model';

// What one verification of a chain checked (rows, the anchor it started from, how long it took) and, when it
// failed, each problem with the row concerned: the edited row, or the rows on either side of a removal.

function Row({ label, row, testId }: { label: string; row: AuditRowRef | null; testId: string }) {
  return (
    <div className="au-problem-row" data-testid={testId} data-id={row?.id ?? ''}>
      <span className="muted">{label}</span>
      {row ? (
        <>
          <span className="mono">{rowName(row)}</span>
          <span className="muted">{formatDateTime(row.timestamp)}</span>
          <span className="mono muted au-wrap">{row.id}</span>
        </>
      ) : (
        <span className="muted">the start of the chain</span>
      )}
    </div>
  );
}

function Problem({ problem }: { problem: AuditChainProblem }) {
  return (
    <li className="au-problem" data-testid="verify-problem" data-reason={problem.reason}>
      <div className="au-problem-text">
        <Icon name="alert" size={14} />
        {problemText(problem)}
      </div>
      {problem.edited ? <Row label="Edited" row={problem.edited} testId="verify-edited" /> : null}
      {problem.removed ? (
        <>
          <Row label="Removed after" row={problem.removed.after} testId="verify-removed-after" />
          {problem.removed.before ? (
            <Row label="…and before" row={problem.removed.before} testId="verify-removed-before" />
          ) : problem.removed.expectedHeadSeq ? (
            <div className="au-problem-row muted">
              The chain head names row #{problem.removed.expectedHeadSeq} as the newest.
            </div>
          ) : null}
        </>
      ) : null}
      {!problem.edited && !problem.removed && problem.entryId ? (
        <div className="au-problem-row">
          <span className="muted">At row</span>
          <span className="mono">#{problem.seq}</span>
          <span className="mono muted au-wrap">{problem.entryId}</span>
        </div>
      ) : null}
    </li>
  );
}

export function VerifyResult({ result }: { result: AuditChainVerification }) {
  return (
    <div
      className={`au-verify ${result.valid ? 'is-ok' : 'is-bad'}`}
      data-testid="verify-result"
      data-valid={result.valid}
    >
      <div className="au-verify-head">
        <Icon name={result.valid ? 'check' : 'alert'} />
        <strong>{result.valid ? 'Intact' : 'Tampering found'}</strong>
        <span className="muted">
          Checked <span data-testid="verify-checked">{plural(result.checked, 'row')}</span> in{' '}
          {formatCount(result.durationMs)} ms,{' '}
          {result.anchor
            ? `from the retention anchor at row #${result.anchor.seq} (cut ${formatDateTime(result.anchor.cutAt, { seconds: false })})`
            : 'from the first entry'}
          , and the chain head.
        </span>
      </div>
      {result.problems.length ? (
        <ul className="au-problems">
          {result.problems.map((p, i) => (
            <Problem key={`${p.reason}-${p.entryId ?? i}`} problem={p} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
