// The imports module's public surface. Its routes are mounted by server/index.ts from routes.ts; nothing else in
// the server needs to import it.
export type { OrgCommitOutcome } from './org-commit';
// Partner provisioning keys are managed by the same partner administrators who import.
export { administeredPartner } from './gate';
