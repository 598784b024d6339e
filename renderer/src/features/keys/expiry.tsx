import { useState } from 'react';
import { isoFromNow, toLocalInput } from '../../lib/dates';
import { useNow } from '../../lib/hooks';
import { Field, Segmented, type LabelRecord } from '../../ui';

// When a key stops working: a preset lifetime from now, or a moment the technician picks. API keys choose from a
// select (never, 30, 90 or 365 days); enrollment keys from short presets, and keep theirs when rotated.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A moment picked in a datetime-local input, checked to lie in the future. */
export function useCustomMoment(defaultAheadMs: number) {
  const [value, setValue] = useState('');
  const now = useNow(60_000);
  const ms = value ? new Date(value).getTime() : NaN;
  const problem = Number.isNaN(ms)
    ? 'Pick a date and time.'
    : ms <= now
      ? 'The expiry must be in the future.'
      : null;
  /** Offer a moment `defaultAheadMs` from now the first time the custom choice is made. */
  const prefill = () => {
    if (!value) setValue(toLocalInput(Date.now() + defaultAheadMs));
  };
  return { value, setValue, ms, problem, prefill };
}

export type CustomMoment = ReturnType<typeof useCustomMoment>;

export function CustomMomentInput({ moment, testId }: { moment: CustomMoment; testId: string }) {
  return (
    <input
      type="datetime-local"
      value={moment.value}
      onChange={(e) => moment.setValue(e.target.value)}
      aria-label="Expiry date and time"
      data-testid={testId}
    />
  );
}

// ---- API keys ----------------------------------------------------------------------------------------------------

export type ApiKeyExpiry = 'never' | '30d' | '90d' | '365d' | 'custom';

const API_KEY_DAYS: Record<Exclude<ApiKeyExpiry, 'never' | 'custom'>, number> = {
  '30d': 30,
  '90d': 90,
  '365d': 365,
};

/** The API key's expiry choice; `resolve` gives the ISO time to send, or undefined for a key that never expires. */
export function useApiKeyExpiry() {
  const [choice, setChoice] = useState<ApiKeyExpiry>('never');
  const custom = useCustomMoment(30 * DAY);
  const choose = (v: ApiKeyExpiry) => {
    setChoice(v);
    if (v === 'custom') custom.prefill();
  };
  const resolve = (): string | undefined =>
    choice === 'never'
      ? undefined
      : choice === 'custom'
        ? new Date(custom.ms).toISOString()
        : isoFromNow(API_KEY_DAYS[choice] * DAY);
  return { choice, choose, custom, problem: choice === 'custom' ? custom.problem : null, resolve };
}

export function ApiKeyExpiryPicker({ expiry }: { expiry: ReturnType<typeof useApiKeyExpiry> }) {
  return (
    <div className="kx-expiry ui-compact-fields">
      <select
        id="api-key-expiry"
        value={expiry.choice}
        onChange={(e) => expiry.choose(e.target.value as ApiKeyExpiry)}
        data-testid="api-key-expiry"
      >
        <option value="never">Never</option>
        <option value="30d">In 30 days</option>
        <option value="90d">In 90 days</option>
        <option value="365d">In 1 year</option>
        <option value="custom">On a date…</option>
      </select>
      {expiry.choice === 'custom' ? (
        <CustomMomentInput moment={expiry.custom} testId="api-key-expiry-custom" />
      ) : null}
    </div>
  );
}

// ---- Enrollment keys ---------------------------------------------------------------------------------------------

export type ExpiryPreset = '1h' | '1d' | '7d' | '30d' | 'custom';

const PRESET_MS: Record<Exclude<ExpiryPreset, 'custom'>, number> = {
  '1h': HOUR,
  '1d': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
};

/** Each preset's label, in the order offered. */
const PRESET_LABEL: Record<ExpiryPreset, string> = {
  '1h': '1 hour',
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
  custom: 'Custom',
};

/** Expiry picker: presets plus a custom moment. `resolve` gives the ISO time, or null to keep the current one. */
export function useExpiry(initial: ExpiryPreset | 'keep') {
  const [preset, setPreset] = useState<ExpiryPreset | 'keep'>(initial);
  const custom = useCustomMoment(3 * DAY);
  const resolve = (): string | null => {
    if (preset === 'keep') return null;
    if (preset === 'custom') return new Date(custom.ms).toISOString();
    return isoFromNow(PRESET_MS[preset]);
  };
  const choose = (v: ExpiryPreset | 'keep') => {
    setPreset(v);
    if (v === 'custom') custom.prefill();
  };
  return { preset, choose, custom, problem: preset === 'custom' ? custom.problem : null, resolve };
}

export function ExpiryPicker({
  expiry,
  idPrefix,
  withKeep,
  error,
}: {
  expiry: ReturnType<typeof useExpiry>;
  idPrefix: string;
  withKeep?: string;
  error: string | null;
}) {
  const options: LabelRecord<ExpiryPreset | 'keep'> = withKeep
    ? { keep: 'Keep', ...PRESET_LABEL }
    : PRESET_LABEL;
  return (
    <Field
      label="Expires"
      error={error}
      hint={
        expiry.preset === 'keep' && withKeep
          ? `Currently ${withKeep}.`
          : 'Short lifetimes are safer: a leaked key is useless once it expires.'
      }
    >
      <div className="kx-expiry ui-compact-fields">
        <Segmented<ExpiryPreset | 'keep'>
          label="Expiry"
          value={expiry.preset}
          onChange={expiry.choose}
          options={options}
          testId={`${idPrefix}-expiry`}
        />
        {expiry.preset === 'custom' ? (
          <CustomMomentInput moment={expiry.custom} testId={`${idPrefix}-expiry-input`} />
        ) : null}
      </div>
    </Field>
  );
}
