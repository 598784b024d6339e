import { useState } from 'react';
import type { ElevationRequest, ElevationRequestDetail } from '../../../../server/contract';
import { Alert, Card } from '../../ui/basics';
import { formatDateTime, relativeTime } from '../../lib/format';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { Link, navigate } from '../../lib/router';
import { RecordFrame, RecordPlaceholder, type RecordPage } from '../../ui';
import { useApiQuery } from '../../lib/query';
import { approvalsApi } from './api';
import { useCanApprove, useCanManagePolicy } from './capability';
import { DecisionPanel } from './DecisionPanel';
import { noticeText, type Notice } from './decision-parts';
import { elapsedText, flowLabel, msSince, subjectOf, waitingTone } from './format';
import { useElevationEvents } from './live';
import { useDebouncedCallback } from '../../lib/hooks';
import { RequestStatus, RiskPill } from './parts';
import { WhatCard, WhoCard, HowCard, Outcome } from './RequestCards';
import { History, Timeline } from './RequestTimeline';
import { SimilarPanel } from './SimilarPanel';
import { SmallButton } from '../../ui/SmallButton';

// /approvals/:id — everything a technician needs to decide one request: the machine and the user, what is asking
// (executable, signer, hash, parent, command line; or the AI tool and its tier), how it was decided, its
// timeline and what happened to the same executable before. Pending requests get the decision panel.

const PAGE: RecordPage = {
  noun: 'request',
  title: 'Elevation request',
  icon: 'approvals',
  className: 'ap-detail adm',
  back: { to: '/approvals', label: 'Approvals' },
  testId: 'request-view',
};

export function RequestPage({ requestId }: { requestId: string }) {
  const read = approvalsApi.detail(requestId);
  const detail = useApiQuery(read.key, read.fetch);
  const canApprove = useCanApprove();
  const canManagePolicy = useCanManagePolicy();
  const now = useNow(1000);
  // The request as a live event last reported it, against the detail that was on screen then: once a newer
  // detail arrives, that one wins.
  const [live, setLive] = useState<{
    request: ElevationRequest;
    base: ElevationRequestDetail | undefined;
  } | null>(null);
  const loaded = detail.data;
  const [notice, setNotice] = useState<Notice | null>(null);

  // A decision made elsewhere (another technician, a rule, the agent's report) shows at once; the detail
  // (timeline, step-up) is re-read right after.
  const { reload } = detail;
  const reloadSoon = useDebouncedCallback(reload, 300);
  useElevationEvents((_event, request) => {
    if (request.id !== requestId) return;
    setLive({ request, base: loaded });
    reloadSoon();
  });
  const r = loaded ? (live && live.base === loaded ? live.request : loaded.request) : null;
  useDocumentTitle(r ? `${subjectOf(r)} on ${r.deviceHostname}` : 'Elevation request');

  if (!loaded || !r) {
    return (
      <RecordPlaceholder
        page={PAGE}
        of={detail}
        forbidden="It belongs to an organization or site outside your access."
        notFound="This elevation request does not exist, or it belongs to an organization or site outside your access."
      />
    );
  }

  const pending = r.status === 'pending';
  const current: ElevationRequestDetail = { ...loaded, request: r };
  const waited = msSince(r.requestedAt, now);

  return (
    <RecordFrame
      page={PAGE}
      title={
        <span className="ap-title">
          <span data-testid="request-title">{subjectOf(r)}</span>
          <RequestStatus status={r.status} enforcement={r.enforcementStatus} testId="request-status" />
          <RiskPill risk={r.riskLevel} />
        </span>
      }
      sub={
        <span className="ap-headline">
          <span>
            on{' '}
            <Link to={`/devices/${encodeURIComponent(r.deviceId)}`} className="ap-strong-link">
              {r.deviceHostname}
            </Link>
            {r.siteName ? ` · ${r.siteName}` : ''}
          </span>
          {r.subjectUsername ? (
            <span>
              for <span className="mono">{r.subjectUsername}</span>
            </span>
          ) : null}
          <span data-testid="request-flow-label">{flowLabel(r)}</span>
          {pending ? (
            <span className={`tone-${waitingTone(waited)}`} data-testid="request-waiting">
              waiting {elapsedText(waited)}
            </span>
          ) : (
            <span title={formatDateTime(r.requestedAt)}>
              requested {relativeTime(Date.parse(r.requestedAt), now)}
            </span>
          )}
        </span>
      }
      actions={
        canManagePolicy ? (
          <SmallButton
            tone="secondary"
            icon="plus"
            onClick={() => navigate(`/pam/rules/new?fromRequest=${encodeURIComponent(r.id)}`)}
            title="Open the rule editor with this request's signer, hash and path filled in"
            testId="create-rule-from-request"
          >
            Create rule from this request
          </SmallButton>
        ) : undefined
      }
    >
      {notice ? (
        <Alert tone={notice.tone} testId={notice.testId}>
          {noticeText(notice, r)}
        </Alert>
      ) : null}

      <div className="ap-layout">
        <div className="ap-main">
          <WhatCard r={r} pending={pending} />
          <div className="ap-pair">
            <WhoCard r={r} />
            <HowCard r={r} />
          </div>
          <Card title="Timeline" icon="clock" testId="request-timeline-card">
            <Timeline events={loaded.timeline} />
          </Card>
        </div>
        <div className="ap-side">
          <Card
            title={pending ? 'Decide' : 'Decision'}
            icon="approvals"
            className={pending ? 'ap-decide-card' : undefined}
            testId="request-decision"
          >
            {pending && canApprove ? (
              <DecisionPanel
                key={r.id}
                detail={current}
                onDecided={(n) => {
                  setNotice(n);
                  reload();
                }}
                onStale={reload}
              />
            ) : pending ? (
              <p className="muted" data-testid="request-read-only">
                Waiting for a technician who can approve elevation requests. Your role can view them only.
              </p>
            ) : (
              <Outcome
                r={r}
                canApprove={canApprove}
                onChanged={(n) => {
                  if (n) setNotice(n);
                  reload();
                }}
              />
            )}
          </Card>
          {r.targetExecutableHash ? (
            <SimilarPanel detail={current} canApprove={canApprove} onDecided={reload} />
          ) : null}
          <Card
            title={
              r.flowType === 'ai_tool_action'
                ? 'Same action before'
                : r.targetExecutablePath
                  ? 'Same executable before'
                  : 'Earlier requests like this'
            }
            icon="activity"
            testId="request-history-card"
          >
            <History
              rows={loaded.history}
              now={now}
              what={
                r.flowType === 'ai_tool_action' ? 'action' : r.targetExecutablePath ? 'executable' : 'request'
              }
            />
          </Card>
        </div>
      </div>
    </RecordFrame>
  );
}
