import { useId, useState, type FormEvent } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { Field, FormDialog } from '../../ui';
import { useAsyncAction } from '../../lib/action';
import { decideMany, type BulkSummary } from './bulk-decide';
import { BulkRequestList } from './BulkRequestList';

// "Deny selected": one reason for every selected request. Each is still denied on its own by the server (its own
// audit entry and push); one decided meanwhile is skipped and the summary says so.

const MAX_REASON = 2000;
const LISTED = 6;

export function DenySelectedDialog({
  requests,
  onClose,
  onDone,
}: {
  requests: ElevationRequest[];
  onClose: () => void;
  onDone: (summary: BulkSummary) => void;
}) {
  const uid = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useAsyncAction();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    if (!text) return setError('Give a reason; each user and the audit trail see it.');
    if (text.length > MAX_REASON) return setError(`Keep the reason under ${MAX_REASON} characters.`);
    setError(null);
    void action.run(async () => {
      onDone(
        await decideMany(
          requests.map((request) => ({ request })),
          { decision: 'deny', reason: text },
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
      <Field
        label="Reason"
        htmlFor={`${uid}-reason`}
        error={error}
        hint="The same reason is recorded for each request; nothing runs with elevated rights."
      >
        <textarea
          id={`${uid}-reason`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          autoFocus
          placeholder="e.g. Not approved software: use the Company Portal version"
          disabled={action.busy}
          data-testid="deny-selected-reason"
        />
      </Field>
    </FormDialog>
  );
}
