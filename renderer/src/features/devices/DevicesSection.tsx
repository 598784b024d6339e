import { usePathname } from '../../lib/router';
import { DevicesPage } from './DevicesPage';
import { DeviceDetailPage } from './DeviceDetailPage';

/** /devices is the list; /devices/:id one device (keyed, so another device starts with fresh state). */
export function DevicesSection() {
  const pathname = usePathname();
  const id = pathname.slice('/devices'.length).replace(/^\/+/, '').split('/')[0] ?? '';
  if (!id) return <DevicesPage />;
  const deviceId = decodeURIComponent(id);
  return <DeviceDetailPage key={deviceId} deviceId={deviceId} />;
}
