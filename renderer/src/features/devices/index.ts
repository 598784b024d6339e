// The public surface of the devices feature: what the route table and other features may import.

export { DevicesSection } from './DevicesSection';
export { registerDeviceLiveCache } from './api';
