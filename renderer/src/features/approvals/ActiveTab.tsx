import { useState } from 'react';
import type { ActiveElevations, ElevationRequest } from '../../../../server/contract';
import { errorMessage } from '../../lib/api/client';
import { LoadState } from '../../ui';
import { Alert } from '../../ui/basics';
import { useNow, useDialog } from '../../lib/hooks';
import { Link, openOnRowClick } from '../../lib/router';
import { EmptyState } from '../../ui';
import {
  REQUESTS_FORBIDDEN,
  STATUS_LABEL,
  awaitsDispatch,
  deciderOf,
  msUntil,
  requestPath,
  subjectOf,
} from './format';
import { ACTIVE_STATUSES, upsert, without } from './live';
import {
  DeviceCell,
  DispatchButton,
  Elapsed,
  EnforcementPill,
  LiveBar,
  RiskCell,
  SignerLine,
  TableHead,
  UserCell,
} from './parts';
import { RevokeDialog } from './RevokeDialog';
import { dispatch } from './actions';
import { useLiveList, type Patch } from './useLiveList';
import { approvalsApi } from './api';

// Elevations in force: approved, auto-approved or being actuated, each counting down to its end, with Revoke.

const selectActive = (r: ActiveElevations) => ({ rows: r.active, pagination: null });

const FORBIDDEN = { ...REQUESTS_FORBIDDEN, title: 'Active elevations are not available to you' };

const patchActive: Patch = (rows, _event, request) => {
  const future = request.expiresAt !== null && Date.parse(request.expiresAt) > Date.now();
  return ACTIVE_STATUSES.has(request.status) && future
    ? upsert(rows, request, 'end')
    : without(rows, request.id);
};

function byExpiry(a: ElevationRequest, b: ElevationRequest): number {
  return (a.expiresAt ?? '').localeCompare(b.expiresAt ?? '');
}

/** Countdown that turns amber in the last five minutes; "ending…" once past (the server expires it shortly). */
function Countdown({ expiresAt, now }: { expiresAt: string | null; now: number }) {
  const left = msUntil(expiresAt, now);
  if (left === null) return <span className="muted">—</span>;
  if (left <= 0)
    return (
      <span className="ap-wait tone-muted" data-testid="active-countdown">
        ending…
      </span>
    );
  return (
    <Elapsed
      ms={left}
      tone={left < 5 * 60_000 ? 'warn' : 'ok'}
      title={expiresAt ? `Ends ${new Date(expiresAt).toLocaleString()}` : undefined}
      testId="active-countdown"
    />
  );
}

export function ActiveTab({ canApprove }: { canApprove: boolean }) {
  const list = useLiveList(approvalsApi.active(), selectActive, patchActive);
  const now = useNow(1000);
  const revoking = useDialog<ElevationRequest>();
  const [sending, setSending] = useState<string | null>(null);
  const [dispatchNote, setDispatchNote] = useState<{
    tone: 'info' | 'warning' | 'danger';
    text: string;
  } | null>(null);

  if (!list.rows) return <LoadState of={list} loading="Loading active elevations…" forbidden={FORBIDDEN} />;
  const rows = [...list.rows].sort(byExpiry);
  const send = async (r: ElevationRequest) => {
    setSending(r.id);
    setDispatchNote(null);
    try {
      const outcome = await dispatch(r);
      if (outcome.kind === 'actuator_off') setDispatchNote({ tone: 'warning', text: outcome.message });
      if (outcome.kind === 'already') setDispatchNote({ tone: 'info', text: outcome.message });
      list.reload();
    } catch (err) {
      setDispatchNote({ tone: 'danger', text: errorMessage(err) });
    } finally {
      setSending(null);
    }
  };

  return (
    <div className="ap-tab" data-testid="approvals-active">
      <LiveBar>
        Elevations in force right now, the soonest to end first. Revoking removes the grant from the device.
      </LiveBar>
      {dispatchNote ? (
        <Alert tone={dispatchNote.tone} testId="dispatch-note">
          {dispatchNote.text}
        </Alert>
      ) : null}
      {rows.length === 0 ? (
        <EmptyState icon="lock" title="No elevation is in force" testId="approvals-active-empty">
          Approved and auto-approved elevations show here with the time they have left.
        </EmptyState>
      ) : (
        <div className="adm-table-card ap-table" role="table" aria-label="Active elevations">
          <TableHead
            variant="ap-active"
            columns={['Ends in', 'Risk', 'Request', 'Device', 'User', 'Approved by', 'On the device', '']}
          />
          {rows.map((r) => (
            <div
              key={r.id}
              className={`ap-row ap-item ap-active ap-clickable${list.fresh.has(r.id) ? ' ap-fresh' : ''}`}
              role="row"
              onClick={openOnRowClick(requestPath(r.id))}
              data-testid={`approval-row-${r.id}`}
              data-status={r.status}
            >
              <Countdown expiresAt={r.expiresAt} now={now} />
              <RiskCell request={r} />
              <span className="ap-two">
                <Link to={requestPath(r.id)} className="ap-strong ap-link">
                  {subjectOf(r)}
                </Link>
                {r.flowType === 'ai_tool_action' ? (
                  <span className="ap-sub">{r.riskTier !== null ? `Tier ${r.riskTier}` : 'AI tool'}</span>
                ) : r.targetExecutablePath ? (
                  <SignerLine request={r} />
                ) : (
                  <span className="ap-sub">—</span>
                )}
              </span>
              <DeviceCell request={r} />
              <UserCell request={r} />
              <span className="ap-two">
                <span>{deciderOf(r) ?? '—'}</span>
                <span className="ap-sub">{STATUS_LABEL[r.status]}</span>
              </span>
              <EnforcementPill value={r.enforcementStatus} />
              <span className="ap-right ap-row-actions">
                {canApprove && awaitsDispatch(r) ? (
                  <DispatchButton
                    busy={sending === r.id}
                    onClick={() => void send(r)}
                    title="Approved but not yet sent: send it to the device now"
                  />
                ) : null}
                {canApprove ? (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm ap-revoke"
                    onClick={() => revoking.open(r)}
                    data-testid="revoke"
                  >
                    Revoke
                  </button>
                ) : null}
              </span>
            </div>
          ))}
        </div>
      )}
      {revoking.value ? <RevokeDialog request={revoking.value} {...revoking.props(list.reload)} /> : null}
    </div>
  );
}
