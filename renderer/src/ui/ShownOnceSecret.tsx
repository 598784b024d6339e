import { useState, type ReactNode } from 'react';
import { copyText } from '../lib/clipboard';
import { CopyButton } from './basics';
import { Icon } from './Icon';
import './shown-once.css';

// A secret the server shows exactly once (a new API or enrollment key, a webhook's signing secret): the warning
// that it will not come back, the secret big and copyable, what the caller adds (snippets that use it), and the
// button that closes it, which says whether it was copied. Test ids: `<prefix>-reveal`, `-secret`, `-copy`, `-done`.

export function ShownOnceSecret({
  secret,
  warning,
  detail,
  label,
  testIdPrefix,
  onDone,
  children,
}: {
  secret: string;
  /** The bold first line: what to do now. */
  warning: ReactNode;
  /** Under it: why, and what to do if the secret is lost. */
  detail: ReactNode;
  /** A label above the secret (none: the secret stands alone). */
  label?: string;
  testIdPrefix: string;
  onDone: () => void;
  children?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const box = (
    <div className="secret">
      <code className="secret-text ui-reveal-secret" data-testid={`${testIdPrefix}-secret`}>
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
  );
  return (
    <div className="ui-reveal" data-testid={`${testIdPrefix}-reveal`}>
      <div className="ui-reveal-warn">
        <Icon name="alert" />
        <div>
          <strong>{warning}</strong>
          <div>{detail}</div>
        </div>
      </div>
      {label ? (
        <div className="field">
          <span className="label ui-reveal-label">{label}</span>
          {box}
        </div>
      ) : (
        box
      )}
      {children}
      <div className="ui-reveal-foot">
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
