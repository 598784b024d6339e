// The public surface of the device groups feature: what the route table imports.
export { DeviceGroupsSection } from './DeviceGroupsSection';
