// The audit module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export { auditCaller } from './caller';
export { allChainRefs, verifyChain } from './chain';
export { runAuditRetention } from './retention';
export { auditEntryVisible } from './store';
export { signInEntryDetails } from './sign-in-store';
export { type ActorType, type AuditInput, AuditWriter } from './writer';
// The Overview's recent activity (server/modules/dashboard): the caller's audit scope and its newest entries.
export { auditScope } from './access';
export { auditEntriesBefore, auditWhere } from './store';
