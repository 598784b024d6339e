import { useQuery } from '@tanstack/react-query';
import type {
  AuditEntry,
  AuditExportFormat,
  AuditFilterQuery,
  AuditReportQuery,
} from '../../../../server/contract';
import { call, stream } from '../../lib/api/endpoints';
import { usePagedList } from '../../lib/paged-list';
import { useApiQuery, type QueryState } from '../../lib/query';

// The audit endpoints (spec 2 "Audit logs"; the `/audit` catalog with its reports, export and chains), typed by
// the contract, and their cached reads. Every key starts with 'audit' so a push can find what it must re-read.

/** Rows per page of the log: the spec's maximum, so scrolling asks the server as rarely as it can. */
export const LOG_PAGE_SIZE = 100;

export const auditApi = {
  /** One page of the log; with `q` it is the search (the same filters, AND the text). */
  list: (filters: AuditFilterQuery, q: string, page: number) =>
    q
      ? call('GET /audit/search', { query: { ...filters, q, page, limit: LOG_PAGE_SIZE } })
      : call('GET /audit/logs', { query: { ...filters, page, limit: LOG_PAGE_SIZE } }),
  get: (id: string) => call('GET /audit/logs/:id', { params: { id } }),
  stats: (query: AuditReportQuery) => call('GET /audit/stats', { query }),
  userActivity: (query: AuditReportQuery) => call('GET /audit/reports/user-activity', { query }),
  securityEvents: (query: AuditReportQuery) =>
    call('GET /audit/reports/security-events', { query: { ...query, latest: 12 } }),
  compliance: (query: AuditReportQuery) => call('GET /audit/reports/compliance', { query }),
  chains: () => call('GET /audit/chains'),
  /** Verifies the chain of one organization (or every chain in scope without `orgId`). */
  verify: (orgId: string | null) => call('GET /audit/verify', { query: { orgId: orgId ?? undefined } }),
  /** The export as a streamed response: the caller reads the body chunk by chunk (export.ts). */
  export: (filters: AuditFilterQuery, q: string, format: AuditExportFormat, signal: AbortSignal) =>
    stream('POST /audit/export', {
      body: { ...filters, ...(q ? { q } : {}), format },
      headers: { accept: format === 'csv' ? 'text/csv' : 'application/json' },
      signal,
    }),
};

export const auditKeys = {
  all: ['audit'] as const,
  logs: ['audit', 'log'] as const,
  log: (filters: AuditFilterQuery, q: string) => ['audit', 'log', filters, q] as const,
  entry: (id: string) => ['audit', 'entry', id] as const,
  report: (name: string, q: AuditReportQuery) => ['audit', 'report', name, q] as const,
  chains: ['audit', 'chains'] as const,
};

/** The log, newest first, a page of 100 at a time as the technician scrolls. */
export function useAuditLog(filters: AuditFilterQuery, q: string) {
  return usePagedList(auditKeys.log(filters, q), (page) => auditApi.list(filters, q, page));
}

/** One entry (the drawer reads it again: the row may be a push that carried no details). */
export function useAuditEntry(id: string | null): QueryState<AuditEntry> {
  return useApiQuery(id ? auditKeys.entry(id) : null, () => auditApi.get(id ?? ''));
}

export type AuditReportName = 'stats' | 'user-activity' | 'security-events' | 'compliance';

export function useAuditReport<T>(
  name: AuditReportName,
  q: AuditReportQuery,
  read: (q: AuditReportQuery) => Promise<T>,
): QueryState<T> {
  return useApiQuery(auditKeys.report(name, q), () => read(q));
}

export function useChainStatus() {
  return useQuery({ queryKey: auditKeys.chains, queryFn: auditApi.chains });
}
