import { useState } from 'react';
import { copyText } from '../../lib/clipboard';
import { CopyButton, Dialog, Icon } from '../../ui';

// A signing secret shown exactly once (after create or rotate): the server keeps it sealed and only ever says
// `hasSecret`, so this is the one moment it can be copied into the receiver.

export function SecretRevealDialog({
  title,
  secret,
  onClose,
}: {
  title: string;
  secret: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog open title={title} onClose={onClose} testId="webhook-secret-dialog" wide>
      <div className="wh-reveal">
        <div className="wh-reveal-warn">
          <Icon name="alert" />
          <div>
            <strong>Copy the signing secret now. You will not see it again.</strong>
            <div>
              The receiver uses it to check <span className="mono">X-Service-Signature</span> on every
              delivery. If it is lost, rotate the secret from the webhook&apos;s page.
            </div>
          </div>
        </div>
        <div className="secret">
          <code className="secret-text wh-secret" data-testid="webhook-secret">
            {secret}
          </code>
          <CopyButton
            onCopy={async () => {
              const ok = await copyText(secret);
              if (ok) setCopied(true);
              return ok;
            }}
            testId="webhook-secret-copy"
          />
        </div>
        <div className="wh-reveal-foot">
          <span className="muted small">{copied ? 'Copied to the clipboard.' : 'Not copied yet.'}</span>
          <button
            type="button"
            className="btn btn-primary"
            onClick={onClose}
            data-testid="webhook-secret-done"
          >
            {copied ? 'Done' : 'I have stored it'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
