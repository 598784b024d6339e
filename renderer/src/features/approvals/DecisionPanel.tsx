import { useId, useState, type FormEvent } from 'react';
import {
  startAuthentication,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { ElevationRequestDetail } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { ActionError } from '../../ui/ActionError';
import { Icon } from '../../ui/Icon';
import { Alert, Field } from '../../ui/basics';
import { Link } from '../../lib/router';
import { LabelOptions, TextAreaField } from '../../ui';
import { useSession } from '../../lib/session';
import { ceremonyCancelled, webAuthnMessage } from './actions';
import { approvalsApi } from './api';
import { StepUpSummary, afterApprove, noticeText, type Notice } from './decision-parts';
import { GRANT_DURATION_LABEL, LEVEL_MEANING, RISK_LABEL } from './format';
import { reasonProblem } from './reason';
import { ReauthField } from './ReauthField';

// Approve or deny a pending request. Approving proves presence on an approver device when the technician has
// one (a WebAuthn assertion bound to this request), adds a fresh password or code when the request needs it,
// then sends the approved elevation to the device at once. The server checks all of it again.

/** The grant lengths offered, then a custom one (typed in minutes). */
const DURATIONS = { ...GRANT_DURATION_LABEL, custom: 'Custom…' };

const MFA_NEEDED = new ApiError(403, 'MFA required', 'MFA_REQUIRED');

type Phase = 'idle' | 'challenge' | 'authenticator' | 'sending' | 'dispatching' | 'denying';

const PHASE_TEXT: Record<Phase, string> = {
  idle: '',
  challenge: 'Preparing the confirmation…',
  authenticator: 'Confirm on this computer (Windows Hello, Touch ID)…',
  sending: 'Approving…',
  dispatching: 'Sending to the device…',
  denying: 'Denying…',
};

function bodyNumber(err: ApiError, key: string): number | null {
  const value = err.body?.[key];
  return typeof value === 'number' ? value : null;
}

export function DecisionPanel({
  detail,
  onDecided,
  onStale,
}: {
  detail: ElevationRequestDetail;
  /** The request was decided here: show `notice` and re-read it. */
  onDecided: (notice: Notice) => void;
  /** Someone else decided it meanwhile: re-read it. */
  onStale: () => void;
}) {
  const { request, stepUp } = detail;
  const uid = useId();
  const [duration, setDuration] = useState<string>('15');
  const [custom, setCustom] = useState('');
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [serverAsked, setServerAsked] = useState<'password' | 'mfa_code' | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [errors, setErrors] = useState<{ duration?: string; reason?: string; reauth?: string }>({});
  const [problem, setProblem] = useState<Notice | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const reauthMethod = serverAsked ?? stepUp.reauthMethod ?? 'password';
  const reauthNeeded =
    stepUp.reauthRequired ||
    serverAsked !== null ||
    (stepUp.mode === 'enforce' && stepUp.requiredLevel === 3 && stepUp.hasApproverDevice);
  const reauthOptional =
    !reauthNeeded && stepUp.mode === 'grace' && stepUp.requiredLevel === 3 && stepUp.hasApproverDevice;
  const reauthGiven = reauthMethod === 'password' ? password.length > 0 : code.replace(/\s/g, '').length > 0;
  const reached = stepUp.hasApproverDevice ? (reauthGiven || reauthNeeded ? 3 : 2) : 1;
  const short = stepUp.mode !== 'off' && reached < stepUp.requiredLevel;
  const blocked = stepUp.mode === 'enforce' && short && !stepUp.hasApproverDevice;
  const busy = phase !== 'idle';
  const sessionMfa = useSession((s) => s.mfa);

  const durationMinutes = (): number | null => {
    if (duration !== 'custom') return Number(duration);
    const n = Number(custom.trim());
    return Number.isInteger(n) && n >= 1 && n <= 1440 ? n : null;
  };

  const clearMessages = () => {
    setErrors({});
    setProblem(null);
    setFailure(null);
  };

  const handleError = (err: unknown) => {
    if (!(err instanceof ApiError)) {
      setFailure(err);
      return;
    }
    if (err.code === 'reauth_required') {
      const method = err.body?.reauthMethod === 'mfa_code' ? 'mfa_code' : (stepUp.reauthMethod ?? 'password');
      setServerAsked(method);
      setErrors({
        reauth:
          method === 'mfa_code'
            ? 'Enter the 6-digit code from your authenticator app to approve this request.'
            : 'Enter your password to approve this request.',
      });
      return;
    }
    if (err.code === 'reauth_failed') {
      setErrors({
        reauth: `${err.message}: ${reauthMethod === 'mfa_code' ? 'that code' : 'that password'} is not right. Nothing was approved.`,
      });
      return;
    }
    if (err.code === 'assertion_failed') {
      setProblem({
        tone: 'danger',
        testId: 'assertion-failed',
        text: `Your approver device’s confirmation was not accepted (${err.message}). Nothing was approved; try again.`,
      });
      return;
    }
    if (err.code === 'step_up_required') {
      const level = bodyNumber(err, 'requiredLevel') ?? stepUp.requiredLevel;
      setProblem({
        tone: 'warning',
        testId: 'step-up-required',
        text: (
          <>
            {err.message} Your partner requires level {level} ({LEVEL_MEANING[level as 1 | 2 | 3] ?? 'higher'}
            ) for {RISK_LABEL[request.riskLevel].toLowerCase()}-risk requests.{' '}
            {stepUp.hasApproverDevice ? null : (
              <Link to="/approvals/devices">Register this computer as an approver device.</Link>
            )}
          </>
        ),
      });
      return;
    }
    if (err.code === 'self_approval_forbidden') {
      setProblem({ tone: 'warning', testId: 'self-approval', text: err.message });
      return;
    }
    if (err.code === 'AI_EXECUTION_TIMED_OUT') {
      setProblem({ tone: 'info', testId: 'ai-timed-out', text: err.message });
      onStale();
      return;
    }
    if (err.status === 409) {
      setProblem({ tone: 'info', testId: 'already-decided', text: err.message });
      onStale();
      return;
    }
    setFailure(err);
  };

  const approve = async () => {
    clearMessages();
    const minutes = durationMinutes();
    const next: typeof errors = {};
    if (minutes === null) next.duration = 'Enter whole minutes from 1 to 1440 (24 hours).';
    if (reauthNeeded && !reauthGiven)
      next.reauth =
        reauthMethod === 'mfa_code'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter your password.';
    const reasonError = reasonProblem(reason);
    if (reasonError) next.reason = reasonError;
    if (Object.keys(next).length > 0 || minutes === null) {
      setErrors(next);
      return;
    }
    try {
      let proof: AuthenticationResponseJSON | undefined;
      if (stepUp.hasApproverDevice) {
        setPhase('challenge');
        const { options } = await approvalsApi.assertionChallenge(request.id);
        const optionsJSON = options as PublicKeyCredentialRequestOptionsJSON;
        if (optionsJSON.allowCredentials && optionsJSON.allowCredentials.length > 0) {
          setPhase('authenticator');
          try {
            proof = await startAuthentication({ optionsJSON });
          } catch (err) {
            setProblem({
              tone: ceremonyCancelled(err) ? 'info' : 'danger',
              testId: 'authenticator-error',
              text: webAuthnMessage(err),
            });
            return;
          }
        }
      }
      setPhase('sending');
      const res = await approvalsApi.respond(request.id, {
        decision: 'approve',
        durationMinutes: minutes,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(proof ? { proof } : {}),
        ...(reauthGiven && reauthMethod === 'password' ? { reauthPassword: password } : {}),
        ...(reauthGiven && reauthMethod === 'mfa_code' ? { reauthMfaCode: code.replace(/\s/g, '') } : {}),
      });
      if (res.status === 'approved') setPhase('dispatching');
      onDecided(await afterApprove(res, detail, minutes));
    } catch (err) {
      handleError(err);
    } finally {
      setPhase('idle');
      setPassword('');
    }
  };

  const deny = async () => {
    clearMessages();
    const reasonError = reasonProblem(reason, 'Give a reason to deny; the user and the audit trail see it.');
    if (reasonError) {
      setErrors({ reason: reasonError });
      return;
    }
    setPhase('denying');
    try {
      await approvalsApi.respond(request.id, { decision: 'deny', reason: reason.trim() });
      onDecided({ tone: 'info', testId: 'deny-done', text: 'Denied. Nothing runs with elevated rights.' });
    } catch (err) {
      handleError(err);
    } finally {
      setPhase('idle');
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy && !blocked && !stepUp.selfApproval) void approve();
  };

  return (
    <form className="ap-decide form adm" onSubmit={submit} noValidate data-testid="decision-panel">
      <StepUpSummary detail={detail} reached={reached} short={short} />

      {request.flowType !== 'ai_tool_action' &&
      request.targetExecutablePath &&
      !request.targetExecutableHash ? (
        <Alert tone="warning" testId="no-hash-warning">
          The agent reported no file hash for this executable, so the server will refuse an approval (it could
          not be tied to one file). Deny it, or ask for the request again from an agent that reports hashes.
        </Alert>
      ) : null}

      {stepUp.selfApproval ? (
        <Alert tone="warning" testId="self-approval">
          This request is yours ({request.subjectUsername}). Nobody approves their own elevation: another
          technician has to decide it. You can still deny it.
        </Alert>
      ) : null}

      <div className="ap-decide-grid">
        <Field label="Approve for" htmlFor={`${uid}-duration`} error={errors.duration}>
          <div className="ap-duration">
            <select
              id={`${uid}-duration`}
              value={duration}
              onChange={(e) => setDuration(e.target.value)}
              disabled={busy}
              data-testid="approve-duration"
            >
              <LabelOptions options={DURATIONS} />
            </select>
            {duration === 'custom' ? (
              <span className="ap-custom">
                <input
                  type="number"
                  min={1}
                  max={1440}
                  step={1}
                  value={custom}
                  onChange={(e) => setCustom(e.target.value)}
                  aria-label="Custom duration in minutes"
                  placeholder="90"
                  disabled={busy}
                  autoFocus
                  data-testid="approve-duration-custom"
                />
                <span className="muted small">min</span>
              </span>
            ) : null}
          </div>
        </Field>
      </div>

      <TextAreaField
        id="deny-reason"
        label="Reason"
        value={reason}
        onChange={setReason}
        error={errors.reason}
        hint="Optional when approving, required to deny. Recorded in the audit trail."
        rows={2}
        disabled={busy}
        placeholder="e.g. Ticket 4821: installing the printer driver"
      />

      {reauthNeeded || reauthOptional ? (
        <ReauthField
          method={reauthMethod}
          ids={{ code: 'reauth-code', password: `${uid}-reauth` }}
          optional={reauthOptional}
          value={reauthMethod === 'mfa_code' ? code : password}
          onChange={reauthMethod === 'mfa_code' ? setCode : setPassword}
          disabled={busy}
          error={errors.reauth}
          hint={
            reauthOptional
              ? 'Confirming again reaches level 3, so this approval is not flagged.'
              : request.riskLevel === 'critical'
                ? 'Critical requests need you to confirm who you are again.'
                : 'Your partner’s policy asks you to confirm who you are again.'
          }
          passwordTestId="reauth-password"
        />
      ) : null}

      {problem ? (
        <Alert tone={problem.tone} testId={problem.testId}>
          {noticeText(problem, detail.request)}
        </Alert>
      ) : null}
      {failure ? (
        <ActionError error={failure} testId="decision-error" />
      ) : !sessionMfa ? (
        // Deciding needs an MFA-verified session: say so before the technician tries.
        <ActionError error={MFA_NEEDED} testId="decision-error" />
      ) : null}

      <div className="ap-decide-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || blocked || stepUp.selfApproval}
          data-testid="approve"
        >
          <Icon name={stepUp.hasApproverDevice ? 'lock' : 'check'} size={15} />
          {phase === 'idle' || phase === 'denying' ? 'Approve' : 'Approving…'}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => void deny()}
          data-testid="deny"
        >
          {phase === 'denying' ? 'Denying…' : 'Deny'}
        </button>
        {phase !== 'idle' ? (
          <span className="ap-phase" role="status" data-testid="decision-phase">
            <span className="spinner" aria-hidden="true" />
            {PHASE_TEXT[phase]}
          </span>
        ) : null}
      </div>
    </form>
  );
}
