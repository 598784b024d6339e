import { useQuery } from '@tanstack/react-query';
import type {
  AuditChainStatusResponse,
  AuditComplianceReport,
  AuditEntry,
  AuditEntryListResponse,
  AuditExportFormat,
  AuditFilterQuery,
  AuditReportQuery,
  AuditSecurityEventsReport,
  AuditStats,
  AuditUserActivityReport,
  AuditVerifyResponse,
} from '../../../../server/contract';
import { api, apiResponse } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { usePagedList } from '../../lib/paged-list';
import { useApiQuery, type QueryState } from '../../lib/query';

// The audit endpoints (spec 2 "Audit logs"; the `/audit` catalog with its reports, export and chains), typed by
// the contract, and their cached reads. Every key starts with 'audit' so a push can find what it must re-read.

/** Rows per page of the log: the spec's maximum, so scrolling asks the server as rarely as it can. */
export const LOG_PAGE_SIZE = 100;

type Params = Record<string, string | number | undefined>;

const entryPath = (id: string) => `/audit/logs/${encodeURIComponent(id)}`;

export const auditApi = {
  /** One page of the log; with `q` it is the search (the same filters, AND the text). */
  list: (filters: AuditFilterQuery, q: string, page: number) =>
    api<AuditEntryListResponse>(
      `${q ? '/audit/search' : '/audit/logs'}${qs({ ...(filters as Params), q: q || undefined, page, limit: LOG_PAGE_SIZE })}`,
    ),
  get: (id: string) => api<AuditEntry>(entryPath(id)),
  stats: (q: AuditReportQuery) => api<AuditStats>(`/audit/stats${qs({ ...q })}`),
  userActivity: (q: AuditReportQuery) =>
    api<AuditUserActivityReport>(`/audit/reports/user-activity${qs({ ...q })}`),
  securityEvents: (q: AuditReportQuery) =>
    api<AuditSecurityEventsReport>(`/audit/reports/security-events${qs({ ...q, latest: 12 })}`),
  compliance: (q: AuditReportQuery) => api<AuditComplianceReport>(`/audit/reports/compliance${qs({ ...q })}`),
  chains: () => api<AuditChainStatusResponse>('/audit/chains'),
  /** Verifies the chain of one organization (or every chain in scope without `orgId`). */
  verify: (orgId: string | null) =>
    api<AuditVerifyResponse>(`/audit/verify${qs({ orgId: orgId ?? undefined })}`),
  /** The export as a streamed response: the caller reads the body chunk by chunk (export.ts). */
  export: (filters: AuditFilterQuery, q: string, format: AuditExportFormat, signal: AbortSignal) =>
    apiResponse('/audit/export', {
      method: 'POST',
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
