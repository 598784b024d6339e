import { useState, type ReactNode } from 'react';
import { copyText } from '../../lib/clipboard';
import { CopyButton, Dialog, Icon } from '../../ui';

// A new or rotated key's secret, shown exactly once, with the snippets that put it to use.

/** A secret shown exactly once: big, monospace, copyable, with the warning that it will not come back. */
export function SecretReveal({
  title,
  secret,
  testIdPrefix,
  children,
  onDone,
}: {
  title: string;
  secret: string;
  testIdPrefix: string;
  children?: ReactNode;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="kx-reveal" data-testid={`${testIdPrefix}-reveal`}>
      <div className="kx-reveal-warn">
        <Icon name="alert" />
        <div>
          <strong>Copy this key now. You will not see it again.</strong>
          <div>Gatehouse stores only a hash. If you lose it, rotate the key to get a new one.</div>
        </div>
      </div>
      <div className="field">
        <span className="label kx-label">{title}</span>
        <div className="secret">
          <code className="secret-text kx-secret" data-testid={`${testIdPrefix}-secret`}>
            {secret}
          </code>
          <CopyButton
            onCopy={async () => {
              const ok = await copyText(secret);
              if (ok) setCopied(true);
              return ok;
            }}
            testId={`${testIdPrefix}-copy`}
          />
        </div>
      </div>
      {children}
      <div className="kx-reveal-foot">
        <span className="muted small">{copied ? 'Copied to the clipboard.' : 'Not copied yet.'}</span>
        <button
          type="button"
          className="btn btn-primary"
          onClick={onDone}
          data-testid={`${testIdPrefix}-done`}
        >
          {copied ? 'Done' : 'I have stored it'}
        </button>
      </div>
    </div>
  );
}

/** A labelled one-line snippet built from the new key, with its own copy button. */
export function CopySnippet({
  label,
  text,
  copyLabel,
  testId,
}: {
  label: string;
  text: string;
  copyLabel: string;
  testId: string;
}) {
  return (
    <div className="field">
      <span className="label kx-label">{label}</span>
      <div className="secret">
        <code className="kx-snippet mono" data-testid={testId}>
          {text}
        </code>
        <CopyButton onCopy={() => copyText(text)} label={copyLabel} testId={`${testId}-copy`} />
      </div>
    </div>
  );
}

/** The dialog that shows a created or rotated key once; `children` adds what is particular to the key kind. */
export function RevealDialog<K extends { name: string; key: string }>({
  reveal,
  noun,
  testIdPrefix,
  onClose,
  children,
}: {
  reveal: { key: K; rotated: boolean } | null;
  /** "API key", "Enrollment key": the dialog title and the secret's label. */
  noun: string;
  testIdPrefix: string;
  onClose: () => void;
  children: (key: K, rotated: boolean) => ReactNode;
}) {
  return (
    <Dialog
      open={reveal !== null}
      title={
        reveal
          ? reveal.rotated
            ? `New key for “${reveal.key.name}”`
            : `${noun} “${reveal.key.name}” created`
          : ''
      }
      onClose={onClose}
      testId={`${testIdPrefix}-reveal-dialog`}
      wide
    >
      {reveal ? (
        <SecretReveal title={noun} secret={reveal.key.key} testIdPrefix={testIdPrefix} onDone={onClose}>
          {children(reveal.key, reveal.rotated)}
        </SecretReveal>
      ) : null}
    </Dialog>
  );
}
