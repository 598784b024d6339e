import { useState, type FormEvent } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { FormDialog, TextAreaField, type DialogProps } from '../../ui';
import { useAsyncAction } from '../../lib/action';
import { decideMany, type BulkSummary } from './bulk-decide';
import { BulkRequestList } from './BulkRequestList';
import { reasonProblem } from './reason';

// "Deny selected": one reason for every selected request. Each is still denied on its own by the server (its own
// audit entry and push); one decided meanwhile is skipped and the summary says so.

const LISTED = 6;

export function DenySelectedDialog({
  requests,
  onClose,
  onDone,
}: { requests: ElevationRequest[] } & DialogProps<BulkSummary>) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useAsyncAction();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = reasonProblem(reason, 'Give a reason; each user and the audit trail see it.');
    setError(problem);
    if (problem) return;
    void action.run(async () => {
      onDone(
        await decideMany(
          requests.map((request) => ({ request })),
          { decision: 'deny', reason: reason.trim() },
        ),
      );
    });
  };

  const n = requests.length;
  return (
    <FormDialog
      title={`Deny ${n} ${n === 1 ? 'request' : 'requests'}`}
      testId="deny-selected-dialog"
      onSubmit={submit}
      onClose={onClose}
      action={action}
      submit={{ label: `Deny ${n}`, busyLabel: 'Denying…', testId: 'deny-selected-submit' }}
    >
      <BulkRequestList requests={requests} limit={LISTED} testId="deny-selected-list" />
      <TextAreaField
        id="deny-selected-reason"
        label="Reason"
        value={reason}
        onChange={setReason}
        error={error}
        hint="The same reason is recorded for each request; nothing runs with elevated rights."
        rows={3}
        autoFocus
        placeholder="e.g. Not approved software: use the Company Portal version"
        disabled={action.busy}
      />
    </FormDialog>
  );
}
