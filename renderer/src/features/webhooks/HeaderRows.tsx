import { WEBHOOK_MAX_HEADERS, type WebhookHeader } from '../../../../server/contract';
import { RemoveRowButton, SmallButton } from '../../ui';

// Custom headers as key/value rows; the server sends them after its own headers on every delivery.

// The two inputs of a row: which field of the header each edits, and how it is named to a screen reader.
const HEADER_PARTS = [
  { field: 'key', name: 'name', placeholder: 'X-Header-Name' },
  { field: 'value', name: 'value', placeholder: 'value' },
] as const;

export function HeaderRows({
  rows,
  onChange,
  error,
}: {
  rows: WebhookHeader[];
  onChange: (rows: WebhookHeader[]) => void;
  error?: string | null;
}) {
  const edit = (at: number, change: Partial<WebhookHeader>) =>
    onChange(rows.map((row, i) => (i === at ? { ...row, ...change } : row)));
  return (
    <div className="wh-headers" data-testid="webhook-headers">
      <div className="wh-label">
        Custom headers <span className="muted">· optional</span>
      </div>
      {rows.length === 0 ? (
        <p className="muted small wh-headers-none">
          None. Add one when the receiver wants, say, an <span className="mono">Authorization</span> token.
        </p>
      ) : (
        rows.map((row, i) => (
          <div className="wh-header-row" key={i}>
            {HEADER_PARTS.map((part) => (
              <input
                key={part.field}
                aria-label={`Header ${i + 1} ${part.name}`}
                className="mono"
                placeholder={part.placeholder}
                value={row[part.field]}
                onChange={(e) => edit(i, { [part.field]: e.target.value })}
                data-testid={`webhook-header-${part.field}-${i}`}
              />
            ))}
            <RemoveRowButton what="header" at={i} list={[rows, onChange]} />
          </div>
        ))
      )}
      {error ? <div className="field-error">{error}</div> : null}
      {rows.length < WEBHOOK_MAX_HEADERS ? (
        <SmallButton
          tone="ghost"
          icon="plus"
          className="wh-add"
          onClick={() => onChange([...rows, { key: '', value: '' }])}
          testId="webhook-header-add"
        >
          Add header
        </SmallButton>
      ) : null}
    </div>
  );
}
