// The agents module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export { type AgentAccess, agentAuthenticator, type AgentCaller, authenticateAgent } from './auth';
export {
  cancelPendingActuationsOf,
  cancelPendingCommand,
  cancelPendingCommandsOf,
  claimCommands,
  commandById,
  type DeviceCommandRow,
  queueCommand,
  recordCommandResult,
  toDeviceCommand,
  type WireCommand,
} from './commands';
export {
  cancelPartnerUninstalls,
  partnerFullyUninstalled,
  queuePartnerUninstalls,
  severPartnerAgents,
} from './offboarding-store';
export { applyPresence, emitDeviceEvent, type PresenceIntent, presenceThresholds } from './presence';
export { markCommandRowSent } from './command-store';
export { agentDeviceById, type AgentDeviceRow, staleOnlineDevices } from './device-store';
