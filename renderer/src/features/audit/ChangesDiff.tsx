import type { AuditChanges } from '../../../../server/contract';
import { diffFields } from './model';
import { plural } from '../../lib/format';

// The before/after of an entry's `changes`, one row per field: added fields green, removed ones red, changed
// ones with the old value struck through beside the new; fields that did not change are counted, not listed.

function Value({ value }: { value: unknown }) {
  if (value === undefined) return <span className="muted">—</span>;
  if (value === null) return <span className="muted mono">null</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  return <span className="mono au-diff-value">{text}</span>;
}

export function ChangesDiff({ changes }: { changes: AuditChanges }) {
  const { rows, unchanged } = diffFields(changes);
  return (
    <div className="au-diff" data-testid="audit-changes">
      <div className="au-diff-row au-diff-head" aria-hidden="true">
        <span>Field</span>
        <span>Before</span>
        <span>After</span>
      </div>
      {rows.map((r) => (
        <div
          key={r.field}
          className={`au-diff-row is-${r.kind}`}
          data-testid="audit-change"
          data-kind={r.kind}
        >
          <span className="mono au-diff-field">{r.field}</span>
          <span className="au-diff-before">
            <Value value={r.before} />
          </span>
          <span className="au-diff-after">
            <Value value={r.after} />
          </span>
        </div>
      ))}
      {rows.length === 0 ? <div className="muted small au-diff-note">No field changed value.</div> : null}
      {unchanged > 0 ? (
        <div className="muted small au-diff-note">{plural(unchanged, 'other field')} recorded unchanged.</div>
      ) : null}
    </div>
  );
}
