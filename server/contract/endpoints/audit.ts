import type {
  AuditChainStatusResponse,
  AuditComplianceReport,
  AuditEntry,
  AuditEntryListResponse,
  AuditExportParams,
  AuditListQuery,
  AuditReportQuery,
  AuditSearchQuery,
  AuditSecurityEventsQuery,
  AuditSecurityEventsReport,
  AuditStats,
  AuditUserActivityReport,
  AuditVerifyResponse,
} from '../audit';
import type { Endpoint, StreamedFile } from './endpoint';

// /audit (spec 2 "Audit logs"): the log, its search, reports and chains. The export is streamed, not JSON.

/** Verifies one organization's chain, or every chain in the caller's scope without `orgId`. */
export interface AuditVerifyQuery {
  orgId?: string;
}

export interface AuditEndpoints {
  'POST /audit/export': Endpoint<StreamedFile, AuditExportParams>;
  'GET /audit/logs': Endpoint<AuditEntryListResponse, undefined, AuditListQuery>;
  'GET /audit/logs/:id': Endpoint<AuditEntry>;
  'GET /audit/search': Endpoint<AuditEntryListResponse, undefined, AuditSearchQuery>;
  'GET /audit/stats': Endpoint<AuditStats, undefined, AuditReportQuery>;
  'GET /audit/reports/user-activity': Endpoint<AuditUserActivityReport, undefined, AuditReportQuery>;
  'GET /audit/reports/security-events': Endpoint<
    AuditSecurityEventsReport,
    undefined,
    AuditSecurityEventsQuery
  >;
  'GET /audit/reports/compliance': Endpoint<AuditComplianceReport, undefined, AuditReportQuery>;
  'GET /audit/chains': Endpoint<AuditChainStatusResponse>;
  'GET /audit/verify': Endpoint<AuditVerifyResponse, undefined, AuditVerifyQuery>;
}
