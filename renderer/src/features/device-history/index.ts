// The device page's history tabs (issue 16 item 3), mounted by features/devices/DeviceDetailPage.tsx.
export { ElevationsTab } from './ElevationsTab';
export { PerformanceTab } from './PerformanceTab';
export { SoftwareTab } from './SoftwareTab';
