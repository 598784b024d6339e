import { forwardRef, useEffect, useState, type ReactNode } from 'react';
import { useFreshHealth } from '../lib/meta';
import { Icon, Logo } from './Icon';

export function AuthLayout({
  children,
  wide,
  aside,
}: {
  children: ReactNode;
  wide?: boolean;
  aside?: ReactNode;
}) {
  const health = useFreshHealth();

  return (
    <div className="auth">
      <div className="auth-brand">
        <Logo size={28} />
        <div>
          <div className="auth-brand-name">Gatehouse</div>
          <div className="auth-brand-sub">Operator console</div>
        </div>
      </div>
      <div className={`auth-card${wide ? ' wide' : ''}`}>{children}</div>
      {aside}
      <div className="auth-foot">
        {health ? <span className="mono">Server v{health.version}</span> : null}
        <span>Privileged access, approved deliberately.</span>
      </div>
    </div>
  );
}

export function Field({
  label,
  htmlFor,
  hint,
  error,
  children,
  aside,
}: {
  label: string;
  /** The control the label names; none for a group of controls (a choice and its input), headed by a plain label. */
  htmlFor?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <div className="field-head">
        {htmlFor ? <label htmlFor={htmlFor}>{label}</label> : <span className="label">{label}</span>}
        {aside}
      </div>
      {children}
      {error ? (
        <div className="field-error" id={htmlFor ? `${htmlFor}-error` : undefined}>
          {error}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
}

export function Alert({
  tone = 'danger',
  children,
  testId,
}: {
  tone?: 'danger' | 'warning' | 'info' | 'success';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'danger' ? 'alert' : 'status'} data-testid={testId}>
      <Icon name={tone === 'success' ? 'check' : tone === 'info' ? 'clock' : 'alert'} />
      <div>{children}</div>
    </div>
  );
}

export function Card({
  title,
  icon,
  actions,
  children,
  className,
  testId,
}: {
  title: string;
  icon?: Parameters<typeof Icon>[0]['name'];
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`} data-testid={testId}>
      <header className="card-head">
        <h2>
          {icon ? <Icon name={icon} /> : null}
          {title}
        </h2>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}

/** A definition list of label/value rows. */
export function Facts({ rows }: { rows: Array<[string, ReactNode, string?]> }) {
  return (
    <dl className="facts">
      {rows.map(([label, value, testId]) => (
        <div className="fact" key={label}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The four tones of status colour: fine, needs a look, wrong, not applicable. */
export type Tone = 'ok' | 'warn' | 'bad' | 'muted';

export function StatusPill({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <span className={`pill pill-${tone}`} data-testid={testId}>
      <span className="pill-dot" aria-hidden="true" />
      {children}
    </span>
  );
}

/** The pill of one value of a closed set (a status, a decision): its tone and its words from the feature's tables. */
export function LabelPill<V extends string>({
  value,
  tones,
  labels,
  testId,
}: {
  value: V;
  tones: Record<V, Tone>;
  labels: Record<V, ReactNode>;
  testId?: string;
}) {
  return (
    <StatusPill tone={tones[value]} testId={testId}>
      {labels[value]}
    </StatusPill>
  );
}

/** A button that briefly confirms it did its job ("Copied"). */
export function CopyButton({
  onCopy,
  label = 'Copy',
  testId,
  className = 'btn btn-secondary btn-sm',
}: {
  onCopy: () => Promise<boolean>;
  label?: string;
  testId?: string;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const id = setTimeout(() => setState('idle'), 1800);
    return () => clearTimeout(id);
  }, [state]);
  return (
    <button
      type="button"
      className={className}
      data-testid={testId}
      onClick={() => void onCopy().then((ok) => setState(ok ? 'done' : 'failed'))}
    >
      <Icon name={state === 'done' ? 'check' : 'copy'} />
      {state === 'done' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ? <span>{label}</span> : null}
    </span>
  );
}

/** The 6-digit authenticator code field: digits only (a space allowed, as apps group them), one-time-code autofill. */
export const TotpCodeInput = forwardRef<
  HTMLInputElement,
  { id: string; value: string; onChange: (code: string) => void; autoFocus?: boolean }
>(function TotpCodeInput({ id, value, onChange, autoFocus }, ref) {
  return (
    <input
      ref={ref}
      id={id}
      className="input-code mono"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      placeholder="000000"
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/[^\d ]/g, ''))}
      data-testid={id}
    />
  );
});
