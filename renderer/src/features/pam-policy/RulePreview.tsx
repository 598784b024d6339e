import { useState } from 'react';
import type {
  ElevationFlowType,
  ElevationStatus,
  PamRulePreviewBody,
  PamVerdict,
} from '../../../../server/contract';
import { ApiError, errorMessage } from '../../lib/errors';
import { Spinner, StatusPill } from '../../ui/basics';
import { Link } from '../../lib/router';
import { compactTime } from '../../lib/format';
import { FLOW_LABEL, STATUS_LABEL, STATUS_TONE, requestPath } from '../approvals';
import { formatCount, plural } from '../../lib/format';
import { useLatestRead } from '../../lib/latest-read';
import { pamPolicyApi } from './api';
import { VERDICT_EFFECT } from './model';

// The rule against history: what the criteria would have matched over the last 7, 30 or 90 days (POST
// /pam/rules/preview, debounced; the latest edit wins and an answer for an older edit is dropped). `body` null
// means the criteria cannot be sent yet; the last answer stays on screen, dimmed.

const DEBOUNCE_MS = 400;
const WINDOWS = [7, 30, 90] as const;
/** Newest matches listed; the server sends up to 20, the panel must fit beside the form. */
const SAMPLE_SHOWN = 8;

const FLOW_SHORT: Record<ElevationFlowType, string> = {
  uac_intercept: 'UAC',
  tech_jit_admin: 'Tech admin',
  ai_tool_action: 'AI tool',
};

export function RulePreview({
  body,
  blocked,
  verdict,
}: {
  /** Criteria + orgId (+ flowType), or null while they cannot be sent. */
  body: Omit<PamRulePreviewBody, 'windowDays'> | null;
  /** Why the body is null, for the technician. */
  blocked: string | null;
  verdict: PamVerdict;
}) {
  const [windowDays, setWindowDays] = useState<(typeof WINDOWS)[number]>(30);
  const input = body ? { ...body, windowDays } : null;
  const { data, error, pending } = useLatestRead(input, pamPolicyApi.previewRule, DEBOUNCE_MS);
  const dim = pending || input === null || Boolean(error);
  const breakdown = data
    ? (Object.entries(data.statusBreakdown) as Array<[ElevationStatus, number]>)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
    : [];

  return (
    <aside className="ui-panel ep-preview" aria-live="polite" data-testid="rule-preview">
      <div className="ep-preview-head">
        <span className="ep-preview-title">Against history</span>
        {pending ? <Spinner /> : null}
        <span className="grow" />
        <select
          value={windowDays}
          onChange={(e) => setWindowDays(Number(e.target.value) as (typeof WINDOWS)[number])}
          aria-label="Preview window"
          data-testid="rule-preview-window"
        >
          {WINDOWS.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </select>
      </div>

      <div className={`ep-preview-count${dim ? ' ep-dim' : ''}`} data-testid="rule-preview-count">
        {data ? (
          <>
            <span className="ep-preview-lead">Would have matched</span>{' '}
            <span className="ep-preview-number">{formatCount(data.totalMatched)}</span>{' '}
            <span className="ep-preview-lead">
              of {plural(data.totalScanned, 'request')} in the last {data.windowDays} days
            </span>
          </>
        ) : (
          <span className="ep-preview-lead">{input === null ? 'No preview yet' : 'Counting…'}</span>
        )}
      </div>

      {input === null ? (
        <p className="muted small" data-testid="rule-preview-blocked">
          {blocked ?? 'Fill in a criterion to see what the rule would have matched.'}
        </p>
      ) : error ? (
        <p
          className={`small ${error instanceof ApiError && error.status < 500 ? 'tone-warn' : 'tone-bad'}`}
          data-testid="rule-preview-error"
        >
          {errorMessage(error)}
        </p>
      ) : data ? (
        <>
          {data.totalMatched > 0 ? (
            <p className="muted small">Under this rule, these would have been {VERDICT_EFFECT[verdict]}.</p>
          ) : (
            <p className="muted small">
              Nothing in this window matches. Check the spelling, or widen the window.
            </p>
          )}
          {data.truncated ? (
            <p className="tone-warn small" data-testid="rule-preview-truncated">
              The history was too long to scan whole: counts cover the most recent requests only.
            </p>
          ) : null}
        </>
      ) : null}

      {data && breakdown.length > 0 ? (
        <div className={`ep-breakdown${dim ? ' ep-dim' : ''}`} data-testid="rule-preview-breakdown">
          {breakdown.map(([status, n]) => (
            <StatusPill key={status} tone={STATUS_TONE[status]}>
              {STATUS_LABEL[status]} {formatCount(n)}
            </StatusPill>
          ))}
        </div>
      ) : null}

      {data && data.sample.length > 0 ? (
        <ul className={`ep-sample${dim ? ' ep-dim' : ''}`} data-testid="rule-preview-sample">
          {data.sample.slice(0, SAMPLE_SHOWN).map((s) => (
            <li key={s.id}>
              <Link to={requestPath(s.id)} className="mono small" title="Open the request">
                {compactTime(s.requestedAt)}
              </Link>
              <span className="muted small" title={FLOW_LABEL[s.flowType]}>
                {FLOW_SHORT[s.flowType]}
              </span>
              <span className={`small tone-${STATUS_TONE[s.status]}`}>{STATUS_LABEL[s.status]}</span>
            </li>
          ))}
          {data.totalMatched > Math.min(data.sample.length, SAMPLE_SHOWN) ? (
            <li className="muted small">
              and {formatCount(data.totalMatched - Math.min(data.sample.length, SAMPLE_SHOWN))} more
            </li>
          ) : null}
        </ul>
      ) : null}

      <p className="ep-preview-note muted small">
        Counts ignore priority and the on/off switch: a rule above this one may have decided some of these
        first.
      </p>
    </aside>
  );
}
