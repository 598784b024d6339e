import type { ReactNode } from 'react';
import type { ElevationRequest, ElevationRequestDetail, RespondResponse } from '../../../../server/contract';
import { Link } from '../../lib/router';
import { Icon } from '../../ui/Icon';
import { dispatch } from './actions';
import { LEVEL_MEANING, RISK_LABEL, minutesText } from './format';

// What the decision panel (DecisionPanel.tsx) says around its state machine: how an approval will be confirmed
// against the partner's step-up policy, and the outcome of an approve in words.

/** A line for the technician after a decision (shown above the request). */
export interface Notice {
  tone: 'success' | 'info' | 'warning' | 'danger';
  /** Words, or words that follow the request as the device reports on it (re-read on every live update). */
  text: ReactNode | ((request: ElevationRequest) => ReactNode);
  testId: string;
}

/** A notice's words for the request as it stands now. */
export function noticeText(notice: Notice, request: ElevationRequest): ReactNode {
  return typeof notice.text === 'function' ? notice.text(request) : notice.text;
}

/** The outcome of an approve, in words for the technician. */
export async function afterApprove(
  res: RespondResponse,
  detail: ElevationRequestDetail,
  duration: number,
): Promise<Notice> {
  if (res.status === 'denied' && res.enforcementStatus === 'refused') {
    return {
      tone: 'danger',
      testId: 'approve-refused',
      text: `Refused: ${res.reason ?? 'the server would not approve this request.'}`,
    };
  }
  const flagged = res.assuranceFlagged
    ? ' It is flagged for review: the confirmation was below your partner’s step-up floor.'
    : '';
  if (res.status !== 'approved' || res.enforcementStatus !== 'pending_dispatch') {
    return { tone: 'success', testId: 'approve-done', text: `Approved.${flagged}` };
  }
  try {
    const outcome = await dispatch(detail.request);
    if (outcome.kind === 'sent')
      return {
        tone: 'success',
        testId: 'approve-done',
        text: (r) =>
          `Approved for ${minutesText(duration)} and ${r.enforcementStatus === 'active' ? 'active on' : 'sent to'} ${r.deviceHostname}.${flagged}`,
      };
    if (outcome.kind === 'actuator_off')
      return {
        tone: 'warning',
        testId: 'approve-not-sent',
        text: `Approved, but not sent to the device: ${outcome.message}`,
      };
    return { tone: 'info', testId: 'approve-done', text: `Approved. ${outcome.message}` };
  } catch (err) {
    return {
      tone: 'warning',
      testId: 'approve-not-sent',
      text: `Approved, but sending it to the device failed (${err instanceof Error ? err.message : 'unknown error'}). Use Dispatch to try again.`,
    };
  }
}

/** How this approval will be confirmed, and what the partner's step-up policy asks for this risk. */
export function StepUpSummary({
  detail,
  reached,
  short,
}: {
  detail: ElevationRequestDetail;
  reached: number;
  short: boolean;
}) {
  const { stepUp, request } = detail;
  const risk = RISK_LABEL[request.riskLevel].toLowerCase();
  return (
    <div className="ap-stepup" data-testid="step-up">
      {stepUp.hasApproverDevice ? (
        <span className="ap-badge ap-badge-device" data-testid="approver-device-badge">
          <Icon name="lock" size={13} />
          Approver device
        </span>
      ) : (
        <span className="ap-badge ap-badge-session" data-testid="session-approval-badge">
          <Icon name="alert" size={13} />
          Session approval (no approver device)
        </span>
      )}
      <p className="ap-stepup-text">
        {stepUp.hasApproverDevice ? (
          <>
            This computer asks for Windows Hello or Touch ID when you approve, binding your presence to this
            request.
          </>
        ) : (
          <>
            Approving relies on your signed-in session alone.{' '}
            <Link to="/approvals/devices" data-testid="register-approver-link">
              Register an approver device
            </Link>{' '}
            to prove presence with Windows Hello or Touch ID.
          </>
        )}
      </p>
      {stepUp.mode !== 'off' ? (
        <p
          className={`ap-stepup-policy${short ? ` ${stepUp.mode === 'enforce' ? 'tone-bad' : 'tone-warn'}` : ''}`}
        >
          {short
            ? stepUp.mode === 'enforce'
              ? `Your partner requires level ${stepUp.requiredLevel} for ${risk}-risk requests: ${LEVEL_MEANING[stepUp.requiredLevel]}. You can reach level ${reached}, so the server will refuse this approval.`
              : `Your partner expects level ${stepUp.requiredLevel} for ${risk}-risk requests: ${LEVEL_MEANING[stepUp.requiredLevel]}. This approval reaches level ${reached} and will be flagged for review.`
            : `This approval reaches level ${reached}; your partner asks for level ${stepUp.requiredLevel} at ${risk} risk.`}
        </p>
      ) : null}
    </div>
  );
}
