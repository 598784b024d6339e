import type { ReactNode } from 'react';
import { copyText } from '../../lib/clipboard';
import { CopyButton, Dialog, ShownOnceSecret, type DialogProps } from '../../ui';

// A new or rotated key's secret, shown exactly once, with the snippets that put it to use.

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
      <span className="label ui-reveal-label">{label}</span>
      <div className="secret">
        <code className="kx-snippet mono" data-testid={testId}>
          {text}
        </code>
        <CopyButton onCopy={() => copyText(text)} label={copyLabel} testId={`${testId}-copy`} />
      </div>
    </div>
  );
}

/** Which key a reveal dialog shows once, and how it is named. */
interface RevealProps<K> extends Pick<DialogProps, 'onClose'> {
  reveal: { key: K; rotated: boolean } | null;
  /** "API key", "Enrollment key": the dialog title and the secret's label. */
  noun: string;
  testIdPrefix: string;
}

/** The dialog that shows a created or rotated key once; `children` adds what is particular to the key kind. */
export function RevealDialog<K extends { name: string; key: string }>({
  reveal,
  noun,
  testIdPrefix,
  onClose,
  children,
}: RevealProps<K> & { children: (key: K, rotated: boolean) => ReactNode }) {
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
        <ShownOnceSecret
          label={noun}
          secret={reveal.key.key}
          warning="Copy this key now. You will not see it again."
          detail="Gatehouse stores only a hash. If you lose it, rotate the key to get a new one."
          testIdPrefix={testIdPrefix}
          onDone={onClose}
        >
          {children(reveal.key, reveal.rotated)}
        </ShownOnceSecret>
      ) : null}
    </Dialog>
  );
}

/**
 * The reveal dialog of a key that is sent as it is (API key, partner key): after a rotation a note that the old
 * key is dead, then one snippet that puts the new key to use (`<testIdPrefix>-snippet`).
 */
export function SnippetRevealDialog<K extends { name: string; key: string }>({
  snippet,
  ...dialog
}: RevealProps<K> & { snippet: (key: K) => { label: string; text: string; copyLabel: string } }) {
  return (
    <RevealDialog {...dialog}>
      {(key, rotated) => (
        <>
          {rotated ? (
            <p className="small muted">The previous key stopped working the moment this one was issued.</p>
          ) : null}
          <CopySnippet {...snippet(key)} testId={`${dialog.testIdPrefix}-snippet`} />
        </>
      )}
    </RevealDialog>
  );
}
