import type { PamVerdict } from '../../../../server/contract';
import { StatusPill } from '../../components/ui';
import { VERDICT_LABEL, VERDICT_TONE } from './model';

// Small pieces the policy screens share.

export function VerdictPill({ verdict, testId }: { verdict: PamVerdict; testId?: string }) {
  return (
    <StatusPill tone={VERDICT_TONE[verdict]} testId={testId}>
      {VERDICT_LABEL[verdict]}
    </StatusPill>
  );
}

/** A bare on/off switch for table rows (the label is for screen readers and the hover title). */
export function RowSwitch({
  checked,
  onChange,
  label,
  disabled,
  testId,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  disabled?: boolean;
  testId: string;
}) {
  return (
    <label className={`adm-toggle ep-switch${disabled ? ' disabled' : ''}`} title={label}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span className="adm-switch" aria-hidden="true" />
    </label>
  );
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
