import { usePathId } from '../../lib/router';
import { DevicesPage } from './DevicesPage';
import { DeviceDetailPage } from './DeviceDetailPage';

/** /devices is the list; /devices/:id one device (keyed, so another device starts with fresh state). */
export function DevicesSection() {
  const deviceId = usePathId('/devices');
  if (deviceId === null) return <DevicesPage />;
  return <DeviceDetailPage key={deviceId} deviceId={deviceId} />;
}
