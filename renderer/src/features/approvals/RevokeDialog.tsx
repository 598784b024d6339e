import { useState } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { ConfirmAction } from '../../ui/DialogActions';
import { Field } from '../../ui/basics';
import { approvalsApi } from './api';
import { subjectOf } from './format';

// Revoking ends an elevation before its time: the server marks it revoked and sends the agent a cleanup
// command. A reason is required (it goes into the audit trail).

const MAX_REASON = 2000;

export function RevokeDialog({
  request,
  onClose,
  onRevoked,
}: {
  request: ElevationRequest;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const trimmed = reason.trim();
  const problem =
    trimmed.length === 0
      ? 'Say why you are ending this elevation.'
      : trimmed.length > MAX_REASON
        ? `Keep the reason under ${MAX_REASON} characters.`
        : null;

  return (
    <ConfirmAction
      title="Revoke this elevation"
      confirmLabel="Revoke now"
      testId="revoke-dialog"
      className="form adm"
      onCancel={onClose}
      onConfirm={async () => {
        setTried(true);
        if (problem) return;
        await approvalsApi.revoke(request.id, trimmed);
        onRevoked();
      }}
    >
      <p>
        <strong>{subjectOf(request)}</strong> on <strong>{request.deviceHostname}</strong>
        {request.subjectUsername ? (
          <>
            {' '}
            for <strong>{request.subjectUsername}</strong>
          </>
        ) : null}{' '}
        loses its elevated rights now. The agent removes the grant as soon as it receives the cleanup.
      </p>
      <Field label="Reason" htmlFor="revoke-reason" error={tried ? problem : null}>
        <textarea
          id="revoke-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          maxLength={MAX_REASON + 200}
          placeholder="e.g. Task finished early; user reported suspicious prompt"
          autoFocus
          data-testid="revoke-reason"
        />
      </Field>
    </ConfirmAction>
  );
}
