import { useId, useState } from 'react';
import { copyText, downloadText } from '../lib/clipboard';
import { CopyButton } from './basics';
import { SmallButton } from './SmallButton';

/** Shows freshly issued recovery codes once, and makes the user confirm they kept them. */
export function RecoveryCodes({
  codes,
  email,
  continueLabel = 'Continue',
  onContinue,
}: {
  codes: string[];
  email: string;
  continueLabel?: string;
  onContinue: () => void;
}) {
  const [saved, setSaved] = useState(false);
  const checkboxId = useId();
  const text = [
    'Gatehouse recovery codes',
    `Account: ${email}`,
    `Issued: ${new Date().toISOString()}`,
    '',
    'Each code signs you in once when your authenticator is not at hand.',
    'Issuing new codes invalidates all of these.',
    '',
    ...codes,
    '',
  ].join('\n');

  return (
    <div className="recovery">
      <ol className="recovery-grid" data-testid="recovery-codes">
        {codes.map((code, i) => (
          <li key={`${i}-${code}`} data-testid="recovery-code">
            <span className="recovery-n">{String(i + 1).padStart(2, '0')}</span>
            <span className="mono">{code}</span>
          </li>
        ))}
      </ol>
      <div className="row gap-sm">
        <CopyButton onCopy={() => copyText(codes.join('\n'))} label="Copy all" testId="recovery-codes-copy" />
        <SmallButton
          tone="secondary"
          icon="download"
          iconSize={16}
          testId="recovery-codes-download"
          onClick={() => downloadText('gatehouse-recovery-codes.txt', text)}
        >
          Download .txt
        </SmallButton>
      </div>
      <label className="check" htmlFor={checkboxId}>
        <input
          id={checkboxId}
          type="checkbox"
          checked={saved}
          onChange={(e) => setSaved(e.target.checked)}
          data-testid="recovery-codes-saved"
        />
        <span>I have saved these codes somewhere safe. They will not be shown again.</span>
      </label>
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={!saved}
        onClick={onContinue}
        data-testid="recovery-codes-continue"
      >
        {continueLabel}
      </button>
    </div>
  );
}
