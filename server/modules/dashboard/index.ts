// The dashboard module's public surface (the Overview, issue 16). server/index.ts composes it: the presence
// recorder on the bus, the route, and the pruning job (server/jobs/presence-history.ts).
export { subscribePresenceHistory } from './presence';
export { prunePresenceHistory } from './retention';
