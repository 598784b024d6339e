import { useState } from 'react';
import { DECISION_REASON_MAX, type ElevationRequest } from '../../../../server/contract';
import type { DialogProps } from '../../ui/Dialog';
import { ConfirmAction } from '../../ui/DialogActions';
import { TextAreaField } from '../../ui/fields';
import { approvalsApi } from './api';
import { subjectOf } from './format';
import { reasonProblem } from './reason';

// Revoking ends an elevation before its time: the server marks it revoked and sends the agent a cleanup
// command. A reason is required (it goes into the audit trail).

export function RevokeDialog({ request, onClose, onDone }: { request: ElevationRequest } & DialogProps) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const problem = reasonProblem(reason, 'Say why you are ending this elevation.');

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
        await approvalsApi.revoke(request.id, reason.trim());
        onDone();
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
      <TextAreaField
        id="revoke-reason"
        label="Reason"
        value={reason}
        onChange={setReason}
        error={tried ? problem : null}
        rows={3}
        maxLength={DECISION_REASON_MAX + 200}
        placeholder="e.g. Task finished early; user reported suspicious prompt"
        autoFocus
      />
    </ConfirmAction>
  );
}
