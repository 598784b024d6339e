import type { PamVerdict } from '../../../../server/contract';
import type { AsyncAction } from '../../lib/action';
import type { ReactNode } from 'react';
import { ActionError, Alert, Button, LabelPill } from '../../ui';
import { VERDICT_LABEL, VERDICT_TONE } from './model';

// Small pieces the policy screens share.

export const RULES_FORBIDDEN = {
  title: 'Rules are not available to you',
  text: "Your account cannot read this organization's elevation rules.",
};

export function VerdictPill({ verdict, testId }: { verdict: PamVerdict; testId?: string }) {
  return <LabelPill value={verdict} tones={VERDICT_TONE} labels={VERDICT_LABEL} testId={testId} />;
}

/** After a save, "Saved." and what it means from now on, until the form changes again. */
export function SavedNotice({
  shown,
  testId,
  children,
}: {
  shown: boolean;
  testId: string;
  children: ReactNode;
}) {
  if (!shown) return null;
  return (
    <Alert tone="success" testId={testId}>
      Saved. {children}
    </Alert>
  );
}

/**
 * The foot of a settings form: the save's error, Discard while there are changes, and the submit button
 * (`<testId>-save`, its error `<testId>-error`).
 */
export function SaveBar({
  save,
  testId,
  dirty,
  invalid,
  onDiscard,
  danger,
  label,
}: {
  save: AsyncAction;
  testId: string;
  dirty: boolean;
  invalid?: boolean;
  onDiscard: () => void;
  danger?: boolean;
  label: string;
}) {
  return (
    <div className="ep-card-foot">
      <ActionError error={save.error} testId={`${testId}-error`} />
      <span className="grow" />
      {dirty ? (
        <button type="button" className="btn btn-ghost" onClick={onDiscard} disabled={save.busy}>
          Discard
        </button>
      ) : null}
      <Button
        tone={danger ? 'danger' : 'primary'}
        submit
        busy={save.busy}
        busyLabel="Saving…"
        disabled={!dirty || invalid}
        testId={`${testId}-save`}
      >
        {label}
      </Button>
    </div>
  );
}
