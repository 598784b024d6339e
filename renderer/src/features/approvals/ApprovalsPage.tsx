import { useQuery } from '@tanstack/react-query';
import { approvalsApi } from './api';
import { Icon } from '../../ui/Icon';
import { useDocumentTitle } from '../../lib/hooks';
import { PageHeader, sectionTabs, Tabs } from '../../ui';
import { useCanApprove } from './capability';
import { useDebouncedCallback } from '../../lib/hooks';
import { useElevationEvents } from './live';
import { useNotificationPermission } from './notifications';
import { PendingTab } from './PendingTab';
import { ActiveTab } from './ActiveTab';
import { HistoryTab } from './HistoryTab';
import { ApproverDevicesTab } from './ApproverDevicesTab';
import { SmallButton } from '../../ui/SmallButton';

export type ApprovalsTab = 'pending' | 'active' | 'history' | 'devices';

const TABS: Array<{ id: ApprovalsTab; label: string; path: string; title: string }> = [
  { id: 'pending', label: 'Pending', path: '/approvals', title: 'Approvals' },
  { id: 'active', label: 'Active', path: '/approvals/active', title: 'Active elevations' },
  { id: 'history', label: 'History', path: '/approvals/history', title: 'Elevation history' },
  { id: 'devices', label: 'Approver devices', path: '/approvals/devices', title: 'Approver devices' },
];

/** How many requests wait for a decision (the Pending tab's badge), re-counted after a burst of pushes. */
function usePendingCount(): number | null {
  const read = approvalsApi.pendingCount();
  const query = useQuery({ queryKey: read.key, queryFn: read.fetch });
  const { refetch } = query;
  const recount = useDebouncedCallback(() => void refetch(), 400);
  useElevationEvents(recount);
  return query.data ?? null;
}

function NotificationPrompt() {
  const { permission, dismissed, request, dismiss } = useNotificationPermission();
  if (permission !== 'default' || dismissed) return null;
  return (
    <div className="alert alert-accent alert-bar ap-notify" data-testid="notifications-prompt">
      <Icon name="approvals" size={16} />
      <span>
        Get a desktop notification when a request arrives, even while the console is in the background.
      </span>
      <span className="ap-grow" />
      <SmallButton tone="primary" onClick={request} testId="enable-notifications">
        Turn on notifications
      </SmallButton>
      <SmallButton tone="ghost" onClick={dismiss}>
        Not now
      </SmallButton>
    </div>
  );
}

export function ApprovalsPage({ tab }: { tab: ApprovalsTab }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  useDocumentTitle(current?.title ?? 'Approvals');
  const pending = usePendingCount();
  const canApprove = useCanApprove();

  return (
    <div className="page ap-page adm" data-testid="approvals-inbox">
      <PageHeader
        title="Approvals"
        sub="Elevation requests from your devices: decide what waits, watch what is in force, look back at the rest."
      />
      {canApprove ? <NotificationPrompt /> : null}
      <Tabs
        label="Approvals sections"
        current={current?.path}
        tabs={sectionTabs(TABS, 'approvals-tab', (t) =>
          t.id === 'pending' && pending !== null ? (
            <span className={`ap-tab-count${pending > 0 ? ' on' : ''}`} data-testid="approvals-pending-count">
              {pending}
            </span>
          ) : undefined,
        )}
      />
      {tab === 'pending' ? <PendingTab canApprove={canApprove} /> : null}
      {tab === 'active' ? <ActiveTab canApprove={canApprove} /> : null}
      {tab === 'history' ? <HistoryTab /> : null}
      {tab === 'devices' ? <ApproverDevicesTab /> : null}
    </div>
  );
}
