// The agent-versions module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export { prepareAgentVersions } from './scan';
export { requireSystemScope } from './service';
export { agentDownloadUrl, archOf, compareVersions, platformOf } from './upgrade';
// The Overview counts devices a heartbeat would offer an upgrade (server/modules/dashboard).
export { upgradeFor } from './upgrade';
// Heartbeats offer the latest build within its staged rollout (server/modules/agents).
export { offeredUpgrade } from './upgrade';
