import { compactTime } from '../../lib/format';
import { Link } from '../../lib/router';
import { CardHead } from '../../ui';
import type { ElevationRequest } from '../../../../server/contract';
import { flowLabel, requestPath } from '../approvals';
import { prefillItems, type PrefillKey } from './prefill';

// A rule made from a request: the checklist of the request's values the new rule starts from.

export function PrefillCard({
  request,
  checked,
  onToggle,
}: {
  request: ElevationRequest;
  checked: ReadonlySet<PrefillKey>;
  onToggle: (key: PrefillKey, on: boolean) => void;
}) {
  const items = prefillItems(request);
  return (
    <section className="card ep-card ep-prefill" data-testid="rule-prefill">
      <CardHead title="From request">
        <Link to={requestPath(request.id)} className="small">
          {request.deviceHostname} · {flowLabel(request)} · {compactTime(request.requestedAt)}
        </Link>
      </CardHead>
      <p className="muted small ep-card-lead">
        Keep what identifies what should be decided the same way next time. Fewer criteria match more
        requests: watch the preview.
      </p>
      {items.length === 0 ? (
        <p className="muted small">The request carries nothing a rule could match on.</p>
      ) : (
        <ul className="ep-prefill-list">
          {items.map((item) => (
            <li key={item.key}>
              <label>
                <input
                  type="checkbox"
                  checked={checked.has(item.key)}
                  onChange={(e) => onToggle(item.key, e.target.checked)}
                  data-testid={`rule-prefill-${item.key}`}
                />
                <span className="ep-prefill-label">{item.label}</span>
                <span
                  className={`ep-prefill-value${item.key === 'hash' || item.key === 'thumbprint' ? ' mono' : ''}`}
                  title={item.display}
                >
                  {item.display}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
