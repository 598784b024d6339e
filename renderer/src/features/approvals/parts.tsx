import type { ReactNode } from 'react';
import type {
  ElevationRequest,
  ElevationStatus,
  EnforcementStatus,
  RiskLevel,
} from '../../../../server/contract';
import { Icon } from '../../ui/Icon';
import { StatusPill } from '../../ui/basics';
import { useLive } from '../../lib/live/socket';
import { Link } from '../../lib/router';
import { formatDateTime } from '../../lib/format';
import {
  ENFORCEMENT_LABEL,
  ENFORCEMENT_TONE,
  RISK_LABEL,
  STATUS_LABEL,
  STATUS_TONE,
  elapsedText,
  fileName,
  requestPath,
  requestState,
  subjectOf,
  type Tone,
} from './format';
import { SmallButton } from '../../ui/SmallButton';

// Small pieces the approvals tables and the request view share.

export function RiskPill({ risk, testId }: { risk: RiskLevel; testId?: string }) {
  return (
    <span className={`ap-risk ap-risk-${risk}`} data-testid={testId} title={`${RISK_LABEL[risk]} risk`}>
      {RISK_LABEL[risk]}
    </span>
  );
}

/** The status pill; given the enforcement too, it follows what the device reported (format.ts requestState). */
export function RequestStatus({
  status,
  enforcement,
  testId,
}: {
  status: ElevationStatus;
  enforcement?: EnforcementStatus | null;
  testId?: string;
}) {
  const state =
    enforcement === undefined
      ? { label: STATUS_LABEL[status], tone: STATUS_TONE[status] }
      : requestState({ status, enforcementStatus: enforcement });
  return (
    <StatusPill tone={state.tone} testId={testId}>
      {state.label}
    </StatusPill>
  );
}

export function EnforcementPill({ value, testId }: { value: EnforcementStatus | null; testId?: string }) {
  if (!value)
    return (
      <span className="muted" data-testid={testId}>
        —
      </span>
    );
  return (
    <span className={`ap-enf tone-${ENFORCEMENT_TONE[value]}`} data-testid={testId} data-value={value}>
      {ENFORCEMENT_LABEL[value]}
    </span>
  );
}

/** A signer, or a plain warning that the executable carries none. */
export function SignerLine({ request }: { request: ElevationRequest }) {
  if (request.targetExecutableSigner)
    return <span className="ap-signer">{request.targetExecutableSigner}</span>;
  return (
    <span className="ap-unsigned">
      <Icon name="alert" size={12} />
      Unsigned
    </span>
  );
}

/** What is asking: file name and signer, the AI tool and its tier, or the technician session. */
export function SubjectCell({ request }: { request: ElevationRequest }) {
  if (request.flowType === 'ai_tool_action') {
    return (
      <span className="ap-two">
        <span className="ap-strong mono">{subjectOf(request)}</span>
        <span className="ap-sub">{request.riskTier !== null ? `Tier ${request.riskTier}` : 'No tier'}</span>
      </span>
    );
  }
  const name = fileName(request.targetExecutablePath);
  return (
    <span className="ap-two">
      <span className="ap-strong" title={request.targetExecutablePath ?? undefined}>
        {name ?? (request.flowType === 'tech_jit_admin' ? 'Admin session' : 'No executable reported')}
      </span>
      {name ? (
        <SignerLine request={request} />
      ) : (
        <span className="ap-sub mono" title={request.commandLine ?? undefined}>
          {request.commandLine ?? '—'}
        </span>
      )}
    </span>
  );
}

/** The risk pill as a table cell. */
export function RiskCell({ request }: { request: ElevationRequest }) {
  return (
    <span>
      <RiskPill risk={request.riskLevel} />
    </span>
  );
}

/** The user the request is for, or a dash. */
export function UserCell({ request }: { request: ElevationRequest }) {
  return (
    <span className="ap-cell" title={request.subjectUsername ?? undefined}>
      {request.subjectUsername ?? <span className="muted">—</span>}
    </span>
  );
}

/** A ticking duration (waiting for, or left), toned by urgency. */
export function Elapsed({
  ms,
  tone,
  title,
  testId,
}: {
  ms: number;
  tone: Tone;
  title?: string;
  testId: string;
}) {
  return (
    <span className={`ap-wait tone-${tone}`} title={title} data-testid={testId}>
      <Icon name="clock" size={13} />
      {elapsedText(ms)}
    </span>
  );
}

/** Sends an approved elevation that is not on its device yet. */
export function DispatchButton({
  busy,
  onClick,
  title,
}: {
  busy: boolean;
  onClick: () => void;
  title?: string;
}) {
  return (
    <SmallButton tone="primary" onClick={onClick} disabled={busy} title={title} testId="dispatch">
      {busy ? 'Sending…' : 'Dispatch'}
    </SmallButton>
  );
}

/** Says so when live updates are not flowing (the lists then only change on reload). */
export function LiveNote() {
  const state = useLive((s) => s.state);
  if (state === 'live') return null;
  return (
    <span className="ap-live-note" data-testid="approvals-live-paused">
      <Icon name="refresh" size={13} />
      {state === 'connecting' ? 'Connecting live updates…' : 'Live updates paused; reconnecting.'}
    </span>
  );
}

/** The line above a live list: what it shows, and whether live updates flow. */
export function LiveBar({ children }: { children: ReactNode }) {
  return (
    <div className="ap-bar">
      <span className="muted small">{children}</span>
      <span className="ap-grow" />
      <LiveNote />
    </div>
  );
}

export function DeviceCell({ request }: { request: ElevationRequest }) {
  return (
    <span className="ap-two">
      <span>{request.deviceHostname}</span>
      <span className="ap-sub">{request.siteName ?? 'No site'}</span>
    </span>
  );
}

export function Time({ iso, children }: { iso: string | null; children?: ReactNode }) {
  return (
    <time dateTime={iso ?? undefined} title={iso ? formatDateTime(iso) : undefined}>
      {children ?? formatDateTime(iso)}
    </time>
  );
}

/** The header row of an approvals table; `variant` sets the grid's columns. */
export function TableHead({ variant, columns }: { variant: string; columns: string[] }) {
  return (
    <div className={`ap-row ap-head ui-grid-head ${variant}`} role="row">
      {columns.map((c, i) => (
        <span key={`${c}-${i}`} role="columnheader">
          {c}
        </span>
      ))}
    </div>
  );
}

/** A table row that opens the request; `fresh` marks a row that just arrived live. */
export function RequestRowLink({
  request,
  variant,
  fresh,
  children,
}: {
  request: ElevationRequest;
  variant: string;
  fresh: boolean;
  children: ReactNode;
}) {
  return (
    <Link
      to={requestPath(request.id)}
      className={`ap-row ap-item ${variant}${fresh ? ' ap-fresh' : ''}`}
      role="row"
      data-testid={`approval-row-${request.id}`}
      data-status={request.status}
    >
      {children}
    </Link>
  );
}
