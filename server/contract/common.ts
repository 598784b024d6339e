// Shapes every part of the contract uses (scopes, pagination, the audit push): a leaf that imports nothing, so the
// domain files import it rather than index.ts, which re-exports them all.

export type Scope = 'system' | 'partner' | 'organization';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
}

export interface Paginated<T> {
  data: T[];
  pagination: Pagination;
}

export interface AuditCreatedEvent {
  id: string;
  action: string;
  actorEmail: string | null;
  resourceType: string;
  resourceId: string | null;
  result: string;
  timestamp: string;
}
