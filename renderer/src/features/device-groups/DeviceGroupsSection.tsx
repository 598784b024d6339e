import { usePathId } from '../../lib/router';
import { DeviceGroupPage } from './DeviceGroupPage';
import { DeviceGroupsPage } from './DeviceGroupsPage';
import './device-groups.css';

/** /device-groups is the list; /device-groups/:id one group (keyed, so another group starts with fresh state). */
export function DeviceGroupsSection() {
  const groupId = usePathId('/device-groups');
  if (groupId === null) return <DeviceGroupsPage />;
  return <DeviceGroupPage key={groupId} groupId={groupId} />;
}
