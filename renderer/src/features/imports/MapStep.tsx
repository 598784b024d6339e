import type { ReactNode } from 'react';
import { plural } from '../../lib/format';
import { Alert, Icon } from '../../ui';
import type { Source } from './SourceStep';
import type { BuiltRow, FieldSpec } from './model';
import { fileLine } from './parts';

// Step 2: which column fills which field. Columns whose header names a field are mapped already; every field
// shows the first values of its column, and the first rows are drawn as they will be sent, so a wrong column
// shows before anything is asked of the server.

const SAMPLE_ROWS = 5;

export type Mapping = Record<string, number | undefined>;

export function MapStep<R>({
  fields,
  source,
  mapping,
  onMapping,
  built,
  footer,
}: {
  fields: readonly FieldSpec[];
  source: Source;
  mapping: Mapping;
  onMapping: (next: Mapping) => void;
  built: ReadonlyArray<BuiltRow<R>>;
  footer: ReactNode;
}) {
  const { headers, rows } = source.csv;
  const mapped = fields.filter((f) => mapping[f.key] !== undefined);
  const invalid = built.flatMap((b, index) => (b.ok ? [] : [{ index, problem: b.problem }]));
  const unmapped = headers.filter((_, i) => !Object.values(mapping).includes(i));

  return (
    <div className="im-map" data-testid="import-map">
      <p className="muted small">
        <strong className="im-strong">{source.name}</strong>: {plural(rows.length, 'row')} under{' '}
        {plural(headers.length, 'column')}.{' '}
        {unmapped.length > 0 ? `Not imported: ${unmapped.join(', ')}.` : 'Every column is mapped.'}
      </p>
      {source.csv.warnings.map((w) => (
        <Alert key={w} tone="warning">
          {w}
        </Alert>
      ))}
      <div className="im-map-grid" role="table" aria-label="Column mapping">
        <div className="im-map-row ui-col-heads" role="row">
          <span role="columnheader">Field</span>
          <span role="columnheader">Column of the file</span>
          <span role="columnheader">First values</span>
        </div>
        {fields.map((field) => {
          const column = mapping[field.key];
          const values =
            column === undefined
              ? []
              : rows
                  .slice(0, 3)
                  .map((r) => r[column]?.trim() ?? '')
                  .filter(Boolean);
          return (
            <div
              className="im-map-row"
              role="row"
              key={field.key}
              data-testid="import-map-row"
              data-field={field.key}
            >
              <span role="cell" className="im-map-field">
                <span>
                  {field.label}
                  {field.required ? <span className="im-req"> required</span> : null}
                </span>
                {field.hint ? <span className="muted small">{field.hint}</span> : null}
              </span>
              <span role="cell">
                <select
                  aria-label={`Column for ${field.label}`}
                  value={column === undefined ? '' : String(column)}
                  onChange={(e) =>
                    onMapping({
                      ...mapping,
                      [field.key]: e.target.value === '' ? undefined : Number(e.target.value),
                    })
                  }
                  data-testid={`import-map-${field.key}`}
                >
                  <option value="">— not imported —</option>
                  {headers.map((h, i) => (
                    <option key={h} value={i}>
                      {h}
                    </option>
                  ))}
                </select>
              </span>
              <span role="cell" className="im-map-sample" title={values.join(' · ')}>
                {column === undefined ? (
                  <span className="faint">—</span>
                ) : values.length === 0 ? (
                  <span className="muted">blank in the first rows</span>
                ) : (
                  values.map((v, i) => (
                    <span key={`${i}-${v}`} className="im-chip">
                      {v}
                    </span>
                  ))
                )}
              </span>
            </div>
          );
        })}
      </div>

      <h3 className="im-sub">The first rows as they will be sent</h3>
      {mapped.length === 0 ? (
        <p className="muted small">Map at least one column to see the rows.</p>
      ) : (
        <div className="im-sample-wrap">
          <table className="im-sample" data-testid="import-sample">
            <thead>
              <tr>
                <th>Line</th>
                {mapped.map((f) => (
                  <th key={f.key}>{f.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, SAMPLE_ROWS).map((r, i) => (
                <tr key={i} className={built[i]?.ok === false ? 'im-invalid' : undefined}>
                  <td className="muted">{fileLine(i)}</td>
                  {mapped.map((f) => (
                    <td key={f.key}>{r[mapping[f.key] ?? -1]?.trim() || <span className="faint">—</span>}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {invalid.length > 0 ? (
        <Alert tone="warning" testId="import-invalid">
          {plural(invalid.length, 'row')} cannot be sent and will be reported as failed:{' '}
          {invalid
            .slice(0, 3)
            .map((r) => `line ${fileLine(r.index)} (${r.problem})`)
            .join(', ')}
          {invalid.length > 3 ? ', …' : ''}.
        </Alert>
      ) : (
        <p className="muted small im-ok-line">
          <Icon name="check" size={14} /> Every row has what the import needs.
        </p>
      )}
      {footer}
    </div>
  );
}
