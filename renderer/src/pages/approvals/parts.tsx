import type { ReactNode } from 'react';
import type {
  ElevationRequest,
  ElevationStatus,
  EnforcementStatus,
  RiskLevel,
} from '../../../../server/contract';
import { Icon } from '../../components/Icon';
import { StatusPill } from '../../components/ui';
import { Link } from '../../router';
import { formatDateTime } from '../../lib/format';
import {
  ENFORCEMENT_LABEL,
  ENFORCEMENT_TONE,
  RISK_LABEL,
  STATUS_LABEL,
  STATUS_TONE,
  fileName,
  subjectOf,
} from './format';

// Small pieces the approvals tables and the request view share.

export function RiskPill({ risk, testId }: { risk: RiskLevel; testId?: string }) {
  return (
    <span className={`ap-risk ap-risk-${risk}`} data-testid={testId} title={`${RISK_LABEL[risk]} risk`}>
      {RISK_LABEL[risk]}
    </span>
  );
}

export function RequestStatus({ status, testId }: { status: ElevationStatus; testId?: string }) {
  return (
    <StatusPill tone={STATUS_TONE[status]} testId={testId}>
      {STATUS_LABEL[status]}
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
    <div className={`ap-row ap-head ${variant}`} role="row">
      {columns.map((c, i) => (
        <span key={`${c}-${i}`} role="columnheader">
          {c}
        </span>
      ))}
    </div>
  );
}

/** A table row that opens the request. */
export function RequestRowLink({
  request,
  variant,
  testId,
  children,
  className,
}: {
  request: ElevationRequest;
  variant: string;
  testId: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link
      to={`/approvals/${encodeURIComponent(request.id)}`}
      className={`ap-row ap-item ${variant}${className ? ` ${className}` : ''}`}
      role="row"
      data-testid={testId}
      data-status={request.status}
    >
      {children}
    </Link>
  );
}
