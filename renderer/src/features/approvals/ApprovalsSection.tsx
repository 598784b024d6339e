import { usePathname } from '../../lib/router';
import { ApprovalsPage, type ApprovalsTab } from './ApprovalsPage';
import { RequestPage } from './RequestPage';
import { startElevationNotifier } from './notifications';
import './approvals.css';

// /approvals            pending requests (the inbox)
// /approvals/active     elevations in force, with countdowns and Revoke
// /approvals/history    every request, filtered and paged
// /approvals/devices    the technician's approver devices (WebAuthn)
// /approvals/<id>       one request: everything needed to decide it

// Desktop notifications follow the whole signed-in session, not just this page (App imports this module at start).
startElevationNotifier();

const TAB_PATHS: Record<string, ApprovalsTab> = {
  '': 'pending',
  active: 'active',
  history: 'history',
  devices: 'devices',
};

export function ApprovalsSection() {
  const pathname = usePathname();
  const rest = pathname.slice('/approvals'.length).replace(/^\/+/, '');
  const segment = rest.split('/')[0] ?? '';
  const tab = TAB_PATHS[segment];
  if (tab) return <ApprovalsPage tab={tab} />;
  const id = decodeURIComponent(segment);
  return <RequestPage key={id} requestId={id} />;
}
