import { usePathname } from '../../lib/router';
import { DeviceGroupPage } from './DeviceGroupPage';
import { DeviceGroupsPage } from './DeviceGroupsPage';
import './device-groups.css';

/** /device-groups is the list; /device-groups/:id one group (keyed, so another group starts with fresh state). */
export function DeviceGroupsSection() {
  const pathname = usePathname();
  const id = pathname.slice('/device-groups'.length).replace(/^\/+/, '').split('/')[0] ?? '';
  if (!id) return <DeviceGroupsPage />;
  const groupId = decodeURIComponent(id);
  return <DeviceGroupPage key={groupId} groupId={groupId} />;
}
