import { useState, type ReactNode } from 'react';
import { Button } from '../../ui';
import type { ElevationRequest } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { Icon } from '../../ui/Icon';
import { Alert, Card, CopyButton } from '../../ui/basics';
import { FactsCard, type FactRow } from '../../ui/FactsCard';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/format';
import { useNow, useDialog } from '../../lib/hooks';
import { Link } from '../../lib/router';
import { dispatch } from './actions';
import type { Notice } from './decision-parts';
import {
  DECISION_SOURCE_LABEL,
  assuranceText,
  awaitsDispatch,
  elapsedText,
  flowLabel,
  minutesText,
  msUntil,
} from './format';
import { ACTIVE_STATUSES } from './live';
import { DispatchButton, EnforcementPill, RiskPill } from './parts';
import { decisionText } from './RequestTimeline';
import { RevokeDialog } from './RevokeDialog';

// The request view's cards: what is asking, who asked, how it was decided and the outcome (the timeline and the
// history of the same executable are in RequestTimeline.tsx).

/** A label/value list whose values wrap (paths, hashes, command lines). */
export function KV({ rows }: { rows: Array<[string, ReactNode, string?] | null | false> }) {
  return (
    <dl className="ap-kv">
      {rows
        .filter((r): r is [string, ReactNode, string?] => Boolean(r))
        .map(([label, value, testId]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function Missing({ children = 'Not reported' }: { children?: ReactNode }) {
  return <span className="muted">{children}</span>;
}

/** A command line as the agent reported it. */
export function CommandLine({ value, testId }: { value: string | null; testId?: string }) {
  if (!value) return <Missing />;
  return (
    <pre className="ui-pre ap-cmd" data-testid={testId}>
      {value}
    </pre>
  );
}

export function Hash({ value, testId }: { value: string; testId: string }) {
  return (
    <span className="ap-hash">
      <code className="mono" data-testid={testId}>
        {value}
      </code>
      <CopyButton
        onCopy={() => copyText(value)}
        label="Copy"
        className="btn btn-ghost btn-sm ap-copy"
        testId={`${testId}-copy`}
      />
    </span>
  );
}

export function WhatCard({ r, pending }: { r: ElevationRequest; pending: boolean }) {
  if (r.flowType === 'ai_tool_action') {
    const rows: FactRow[] = [
      ['Tool', <span className="mono">{r.toolName ?? '—'}</span>, 'request-tool'],
      ['Risk tier', r.riskTier !== null ? `Tier ${r.riskTier} of 4` : <Missing />, 'request-tier'],
      [
        'Action digest',
        r.actionDigest ? <Hash value={r.actionDigest} testId="request-digest" /> : <Missing />,
      ],
      ['Command line', <CommandLine value={r.commandLine} />],
    ];
    return <FactsCard title="AI tool action" icon="activity" testId="request-what" as={KV} rows={rows} />;
  }
  if (r.flowType === 'tech_jit_admin' && !r.targetExecutablePath) {
    return (
      <Card title="Technician admin session" icon="lock" testId="request-what">
        <p className="muted small">
          A technician asks for local administrator rights on this machine for a while, not for one
          executable.
        </p>
        <KV
          rows={[
            ['Command line', <CommandLine value={r.commandLine} testId="request-command-line" />],
            r.parentImage ? ['Parent process', <span className="mono ap-path">{r.parentImage}</span>] : false,
            r.pid !== null ? ['Process id', <span className="mono">{r.pid}</span>] : false,
          ]}
        />
      </Card>
    );
  }
  const rows: FactRow[] = [
    [
      'Executable',
      r.targetExecutablePath ? (
        <span className="mono ap-path">{r.targetExecutablePath}</span>
      ) : (
        <Missing>
          {r.flowType === 'tech_jit_admin' ? 'Admin session (no executable)' : 'Not reported'}
        </Missing>
      ),
      'request-path',
    ],
    [
      'Signer',
      r.targetExecutableSigner ? (
        <span className="ap-signed">
          <Icon name="check" size={13} />
          {r.targetExecutableSigner}
        </span>
      ) : r.targetExecutablePath ? (
        <span className="ap-warnline" data-testid="request-unsigned">
          <Icon name="alert" size={13} />
          {pending
            ? 'Unsigned: nobody vouches for this file. Check the path and hash before approving.'
            : 'Unsigned'}
        </span>
      ) : (
        <Missing />
      ),
      'request-signer',
    ],
    [
      'SHA-256',
      r.targetExecutableHash ? (
        <Hash value={r.targetExecutableHash} testId="request-hash" />
      ) : r.targetExecutablePath ? (
        <span className="ap-warnline" data-testid="request-no-hash">
          <Icon name="alert" size={13} />
          No file hash reported: the server refuses to approve a specific executable without one.
        </span>
      ) : (
        <Missing />
      ),
    ],
    r.targetSignerThumbprint
      ? ['Signer thumbprint', <Hash value={r.targetSignerThumbprint} testId="request-thumbprint" />]
      : ['Signer thumbprint', <Missing />],
    ['Parent process', r.parentImage ? <span className="mono ap-path">{r.parentImage}</span> : <Missing />],
    ['Command line', <CommandLine value={r.commandLine} testId="request-command-line" />],
    ['Process id', r.pid !== null ? <span className="mono">{r.pid}</span> : <Missing />],
  ];
  return <FactsCard title="What asks for elevation" icon="lock" testId="request-what" as={KV} rows={rows} />;
}

export function WhoCard({ r }: { r: ElevationRequest }) {
  const rows: Array<FactRow | false> = [
    [
      'Machine',
      <Link to={`/devices/${encodeURIComponent(r.deviceId)}`} data-testid="request-device-link">
        {r.deviceHostname}
      </Link>,
    ],
    ['Site', r.siteName ?? <Missing>No site</Missing>],
    [
      'User',
      r.subjectUsername ? <span className="mono">{r.subjectUsername}</span> : <Missing />,
      'request-user',
    ],
    [
      'AD groups',
      r.subjectAdGroups.length > 0 ? (
        <span className="ap-groups">
          {r.subjectAdGroups.map((g) => (
            <span key={g} className="adm-tag">
              {g}
            </span>
          ))}
        </span>
      ) : (
        <Missing>None reported</Missing>
      ),
    ],
    ['Observed', r.observedAt ? formatDateTime(r.observedAt) : <Missing />],
    ['Requested', formatDateTime(r.requestedAt)],
  ];
  return <FactsCard title="Machine and user" icon="devices" testId="request-who" as={KV} rows={rows} />;
}

export function HowCard({ r }: { r: ElevationRequest }) {
  const rows: Array<FactRow | false> = [
    ['Flow', flowLabel(r), 'request-flow'],
    ['Risk', <RiskPill risk={r.riskLevel} testId="request-risk" />],
    [
      'Decided by',
      r.decisionSource ? DECISION_SOURCE_LABEL[r.decisionSource] : <Missing>Nobody yet</Missing>,
      'request-decision-source',
    ],
    [
      'Matched rule',
      r.pamRuleName ? (
        <span>
          {r.pamRuleName}
          {r.pamRuleId ? (
            <>
              {' '}
              <Link to={`/pam/rules/${encodeURIComponent(r.pamRuleId)}`} className="small">
                Open rule
              </Link>
            </>
          ) : null}
        </span>
      ) : (
        <Missing>None</Missing>
      ),
      'request-rule',
    ],
    r.matchedPolicyName ? ['Software policy', r.matchedPolicyName] : false,
  ];
  return <FactsCard title="Classification" icon="audit" testId="request-how" as={KV} rows={rows} />;
}

/** The outcome of a decided request: who, when, how assured, what the device did; Dispatch and Revoke. */
export function Outcome({
  r,
  canApprove,
  onChanged,
}: {
  r: ElevationRequest;
  canApprove: boolean;
  onChanged: (notice?: Notice) => void;
}) {
  const now = useNow(1000);
  const revoking = useDialog<true>();
  const [dispatching, setDispatching] = useState(false);
  const [dispatchError, setDispatchError] = useState<unknown>(null);
  const left = msUntil(r.expiresAt, now);

  const send = async () => {
    setDispatching(true);
    setDispatchError(null);
    try {
      const outcome = await dispatch(r);
      onChanged(
        outcome.kind === 'sent'
          ? { tone: 'success', testId: 'dispatch-done', text: `Sent to ${r.deviceHostname}.` }
          : outcome.kind === 'actuator_off'
            ? { tone: 'warning', testId: 'dispatch-off', text: outcome.message }
            : { tone: 'info', testId: 'dispatch-already', text: outcome.message },
      );
    } catch (err) {
      setDispatchError(err);
    } finally {
      setDispatching(false);
    }
  };

  return (
    <div className="ap-outcome" data-testid="request-outcome">
      {r.enforcementStatus === 'refused' && r.refusalReason ? (
        <Alert tone="danger" testId="request-refused">
          Refused: {r.refusalReason}
        </Alert>
      ) : null}
      <KV
        rows={[
          ['Decision', decisionText(r), 'request-decider'],
          ['When', r.decidedAt ? formatDateTime(r.decidedAt) : <Missing>—</Missing>],
          (r.assuranceLevel !== null || r.assuranceMethod !== null) && [
            'Assurance',
            <span className="ap-assurance">
              <span data-testid="assurance">{assuranceText(r.assuranceLevel, r.assuranceMethod)}</span>
              {r.assuranceFlagged ? (
                <span
                  className="ap-badge ap-badge-flag"
                  title="Approved below the partner's step-up floor while the policy is in grace mode"
                  data-testid="assurance-flagged"
                >
                  <Icon name="alert" size={12} />
                  Flagged: under grace
                </span>
              ) : null}
            </span>,
          ],
          r.durationMinutes !== null && ['Window', minutesText(r.durationMinutes)],
          r.expiresAt !== null && [
            r.status === 'expired' ? 'Expired' : 'Ends',
            <span>
              {formatDateTime(r.expiresAt)}
              {left !== null && left > 0 && ACTIVE_STATUSES.has(r.status) ? (
                <span className="ap-left" data-testid="request-time-left">
                  {' '}
                  · {elapsedText(left)} left
                </span>
              ) : null}
            </span>,
          ],
          ['On the device', <EnforcementPill value={r.enforcementStatus} testId="request-enforcement" />],
          r.decisionReason ? ['Reason', <span className="ap-wrap">{r.decisionReason}</span>] : false,
          r.status === 'revoked' && [
            'Revoked',
            <span className="ap-wrap">
              {r.revokedByName ? `by ${r.revokedByName}` : ''}
              {r.revokeReason ? ` — “${r.revokeReason}”` : ''}
            </span>,
            'request-revoked',
          ],
        ]}
      />
      {canApprove && awaitsDispatch(r) ? (
        <div className="alert alert-warning ap-outcome-note">
          <span className="small">Approved but not yet sent to the device.</span>
          <DispatchButton busy={dispatching} onClick={() => void send()} />
        </div>
      ) : null}
      <ActionError error={dispatchError} testId="dispatch-error" />
      {canApprove && ACTIVE_STATUSES.has(r.status) ? (
        <div className="ap-decide-actions">
          <Button tone="danger" onClick={() => revoking.open(true)} testId="revoke">
            Revoke…
          </Button>
          <span className="muted small">Ends the elevation now and removes it from the device.</span>
        </div>
      ) : null}
      {revoking.value ? (
        <RevokeDialog
          request={r}
          {...revoking.props(() =>
            onChanged({
              tone: 'info',
              testId: 'revoke-done',
              // The device's report replaces "sent" once it has removed the grant.
              text: (request) =>
                request.enforcementStatus === 'cleaned_up'
                  ? 'Revoked. The device reports the elevation removed.'
                  : 'Revoked. Cleanup was sent to the device; waiting for it to confirm.',
            }),
          )}
        />
      ) : null}
    </div>
  );
}
