// The devices module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export {
  callerId,
  canSeeDevice,
  deviceOutside,
  type DeviceRef,
  deviceRefOf,
  deviceVisibility,
  type DeviceVisibility,
  onDeviceRows,
  onDevices,
  requireDevice,
  restrictionClauses,
  restrictionDenied,
  visibilityClauses,
} from './access';
export { commaList } from './schemas';
export { type Clause } from './store';
