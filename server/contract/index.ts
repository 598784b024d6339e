// The console's view of the API: response and message shapes shared with renderer/ as type-only imports.
// Request bodies are validated by the zod schemas next to each route; these types describe what comes back.

export interface ApiErrorBody {
  error: string;
  code?: string;
  [extra: string]: unknown;
}

/** Data of the `audit.created` console event: one new audit entry, without its details. */
export * from './common';
export * from './session';
export * from './tenancy';
export * from './people';
export * from './keys';
export * from './registration';
export * from './demo';
export * from './devices';
export * from './device-metrics';
export * from './filters';
export * from './agent-versions';
export * from './pam';
export * from './pam-policy';
export * from './backups';
export * from './events';
export * from './webhooks';
export * from './access-reviews';
export * from './audit';
export * from './contacts';
export * from './imports';
export * from './partner-api';
export * from './sso';
export * from './dashboard';
export * from './endpoints';
