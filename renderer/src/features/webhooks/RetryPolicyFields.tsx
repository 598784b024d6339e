import type { WebhookRetryPolicy } from '../../../../server/contract';
import { Toggle } from '../../ui';
import { retryWords, type RetryDraft } from './form-model';
import { DEFAULT_RETRY } from './model';

// The optional retry policy: off means the server's default (5 retries from 1 s doubling, at most 300 s); on,
// four numbers, and the schedule they give in words so nobody has to do the arithmetic.

const FIELDS: Array<{ key: keyof RetryDraft; label: string; hint: string }> = [
  { key: 'maxRetries', label: 'Retries', hint: '0–10; 0 fails at once' },
  { key: 'initialDelayMs', label: 'First delay (ms)', hint: '10 ms – 1 h' },
  { key: 'backoffMultiplier', label: 'Multiplier', hint: '1–10' },
  { key: 'maxDelayMs', label: 'Longest delay (ms)', hint: 'up to 24 h' },
];

function scheduleText(policy: WebhookRetryPolicy): string {
  if (policy.maxRetries === 0) return 'A failed attempt fails the delivery at once (no retries).';
  return `${retryWords(policy).replace(/^\d+ retr(y|ies) after/, 'Retries after')}, then the delivery is marked failed.`;
}

export function RetryPolicyFields({
  own,
  onOwn,
  draft,
  onDraft,
  policy,
  error,
}: {
  own: boolean;
  onOwn: (own: boolean) => void;
  draft: RetryDraft;
  onDraft: (draft: RetryDraft) => void;
  policy: WebhookRetryPolicy | null;
  error: string | null;
}) {
  return (
    <div className="wh-retry">
      <Toggle
        id="webhook-own-retry"
        checked={own}
        onChange={onOwn}
        label="Own retry policy"
        hint={own ? undefined : scheduleText(DEFAULT_RETRY).replace('Retries', 'Default: retries')}
      />
      {own ? (
        <>
          <div className="wh-retry-grid">
            {FIELDS.map((f) => (
              <label key={f.key} className="wh-retry-field">
                <span className="wh-label">{f.label}</span>
                <input
                  inputMode="decimal"
                  className="mono"
                  value={draft[f.key]}
                  onChange={(e) => onDraft({ ...draft, [f.key]: e.target.value })}
                  data-testid={`webhook-retry-${f.key}`}
                />
                <span className="muted small">{f.hint}</span>
              </label>
            ))}
          </div>
          {error ? (
            <div className="field-error">{error}</div>
          ) : policy ? (
            <p className="muted small" data-testid="webhook-retry-schedule">
              {scheduleText(policy)}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
