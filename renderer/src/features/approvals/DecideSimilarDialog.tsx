import { useId, useState, type FormEvent } from 'react';
import { Field, FormDialog, LabelOptions, TextAreaField, type DialogProps } from '../../ui';
import { ReauthField } from './ReauthField';
import { useAsyncAction } from '../../lib/action';
import { decideMany, type BulkPhase, type BulkSummary, type BulkTarget } from './bulk-decide';
import { BulkRequestList } from './BulkRequestList';
import { GRANT_DURATION_LABEL } from './format';
import { reasonProblem } from './reason';

// Approve or deny a request and its look-alikes in one step. Each is still its own decision on the server; here
// each approve is confirmed on the approver device one by one when the technician has one, and the password (or
// code) is asked once when any of them needs it again (a critical request, or a level-3 floor).

function phaseText(phase: BulkPhase | null): string | undefined {
  if (!phase) return undefined;
  if (phase.step === 'confirming') return `Confirm ${phase.index} of ${phase.of} on this computer…`;
  return phase.step === 'sending' ? 'Deciding…' : 'Sending to the devices…';
}

/** Whether approving this target needs the password or code again. */
const needsReauth = (t: BulkTarget) =>
  Boolean(
    t.stepUp &&
    (t.stepUp.reauthRequired ||
      (t.stepUp.mode === 'enforce' && t.stepUp.requiredLevel === 3 && t.stepUp.hasApproverDevice)),
  );

export function DecideSimilarDialog({
  decision,
  targets,
  onClose,
  onDone,
}: { decision: 'approve' | 'deny'; targets: BulkTarget[] } & DialogProps<BulkSummary>) {
  const uid = useId();
  const [duration, setDuration] = useState('15');
  const [reason, setReason] = useState('');
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; secret?: string }>({});
  const [phase, setPhase] = useState<BulkPhase | null>(null);
  const action = useAsyncAction();
  const approving = decision === 'approve';
  const reauthTargets = approving ? targets.filter(needsReauth) : [];
  const method = reauthTargets[0]?.stepUp?.reauthMethod ?? 'password';
  const n = targets.length;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    const next: typeof errors = {};
    const problem = reasonProblem(
      reason,
      approving ? undefined : 'Give a reason to deny; each user and the audit trail see it.',
    );
    if (problem) next.reason = problem;
    if (reauthTargets.length > 0 && !secret.trim())
      next.secret =
        method === 'mfa_code' ? 'Enter the code from your authenticator app.' : 'Enter your password.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    void action.run(async () => {
      try {
        const summary = await decideMany(
          targets,
          {
            decision,
            ...(text ? { reason: text } : {}),
            ...(approving ? { durationMinutes: Number(duration) } : {}),
            ...(reauthTargets.length > 0
              ? method === 'mfa_code'
                ? { reauthMfaCode: secret.replace(/\s/g, '') }
                : { reauthPassword: secret }
              : {}),
          },
          setPhase,
        );
        onDone(summary);
      } finally {
        setPhase(null);
        setSecret('');
      }
    });
  };

  return (
    <FormDialog
      title={`${approving ? 'Approve' : 'Deny'} ${n} similar ${n === 1 ? 'request' : 'requests'}`}
      testId="decide-similar-dialog"
      onSubmit={submit}
      onClose={onClose}
      action={action}
      submit={{
        label: `${approving ? 'Approve' : 'Deny'} ${n}`,
        busyLabel: phaseText(phase) ?? (approving ? 'Approving…' : 'Denying…'),
        testId: 'decide-similar-submit',
      }}
    >
      <BulkRequestList requests={targets.map((t) => t.request)} withRisk testId="decide-similar-list" />
      <p className="muted small">
        Each request is decided on its own and audited separately.
        {approving && targets.some((t) => t.stepUp?.hasApproverDevice)
          ? ' You confirm each one on this computer (Windows Hello, Touch ID).'
          : ''}{' '}
        A request someone else decides meanwhile is skipped.
      </p>
      {approving ? (
        <Field label="Approve for" htmlFor={`${uid}-duration`}>
          <select
            id={`${uid}-duration`}
            value={duration}
            onChange={(e) => setDuration(e.target.value)}
            disabled={action.busy}
            data-testid="similar-duration"
          >
            <LabelOptions options={GRANT_DURATION_LABEL} />
          </select>
        </Field>
      ) : null}
      <TextAreaField
        id="similar-reason"
        label="Reason"
        value={reason}
        onChange={setReason}
        error={errors.reason}
        hint={approving ? 'Optional; recorded for each request.' : 'Required; recorded for each request.'}
        rows={2}
        disabled={action.busy}
      />
      {reauthTargets.length > 0 ? (
        <ReauthField
          method={method}
          ids={{ code: `${uid}-code`, password: `${uid}-password` }}
          value={secret}
          onChange={setSecret}
          disabled={action.busy}
          error={errors.secret}
          hint={
            reauthTargets.length === 1
              ? 'One of these needs you to confirm who you are again.'
              : `${reauthTargets.length} of these need you to confirm who you are again: once, for all of them.`
          }
          passwordTestId="similar-password"
        />
      ) : null}
    </FormDialog>
  );
}
