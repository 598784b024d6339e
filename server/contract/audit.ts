// Over 400 lines: the whole audit API contract in one place (entries, search, export, reports, retention, verify), read by server and console alike.
// The platform audit log (spec 2 "Platform audit log entry", "Audit logs", Limits; issue 13 item 2). Field names
// are the spec's; what the spec leaves open (export parameters, report shapes, retention and verify endpoints) is
// decided here and marked "beyond the spec". The console builds its screens from these types; the server validates
// requests with the zod schemas in server/modules/audit/. Changes to these types are additive only.
import type { Paginated } from './common';

/** Spec 2: categories derived from the action prefix. */
export const AUDIT_CATEGORIES = [
  'authentication',
  'device',
  'automation',
  'policy',
  'alert',
  'compliance',
  'organization',
  'system',
] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

export const AUDIT_RESULTS = ['success', 'failure', 'denied'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

export type AuditActorType = 'user' | 'api_key' | 'agent' | 'system';

/** Spec 2 "Security actions": what the security-events report counts. */
export const AUDIT_SECURITY_ACTIONS = [
  'user.login',
  'user.login.failed',
  'user.permission.change',
  'policy.update',
  'policy.create',
  'policy.evaluate',
  'automation.policy.evaluate',
] as const;

/** Spec 2 "Compliance actions": what the compliance report groups. */
export const AUDIT_COMPLIANCE_ACTIONS = [
  'data.access',
  'data.export',
  'device.create',
  'device.delete',
  'policy.update',
  'policy.evaluate',
  'automation.policy.evaluate',
  'script.execute',
  'organization.update',
] as const;

/** Spec 2 Limits: rows per export. */
export const AUDIT_EXPORT_CAP = 10_000;
/** Spec 2 Limits: list page size. */
export const AUDIT_PAGE_LIMIT_DEFAULT = 50;
export const AUDIT_PAGE_LIMIT_MAX = 100;
/** Reports and stats: the default range is the last 30 days; a range may span at most 366 days. */
export const AUDIT_REPORT_DEFAULT_DAYS = 30;
export const AUDIT_REPORT_MAX_DAYS = 366;
/** Spec 2 Limits: retention default. Beyond the spec: the window accepted by PUT /audit/retention. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

// ---- Requests (query strings; every field optional unless said) ----

/**
 * Filters of every list, search, export, report and stats endpoint. Text filters are case-insensitive substring
 * matches (spec 2). `from`/`to` are ISO 8601 date-times with an offset, inclusive.
 * Beyond the spec (additive): `result`, `category`, and `orgId` (one organization of the caller's scope; an
 * organization outside it answers 404 'Organization not found').
 */
export interface AuditFilterQuery {
  /** Actor email or name. */
  user?: string;
  action?: string;
  /** Resource type or name. */
  resource?: string;
  from?: string;
  to?: string;
  result?: AuditResult;
  category?: AuditCategory;
  orgId?: string;
}

/** GET /audit-logs, /audit-logs/logs (and /audit, /audit/logs): page from 1, limit default 50, max 100. */
export interface AuditListQuery extends AuditFilterQuery {
  page?: number;
  limit?: number;
}

/** GET /audit-logs/search, /audit/search: `q` required, 1-200 chars, matched across action, actor email, resource
 * type, resource name and details (case-insensitive substring), AND with the filters. */
export interface AuditSearchQuery extends AuditListQuery {
  q: string;
}

export type AuditExportFormat = 'csv' | 'json';

/**
 * GET /audit/export (query) and POST /audit/export (the same fields as a JSON body). Needs `audit:export`.
 * `q` optional here: with it the export is the search's rows. Newest first, at most AUDIT_EXPORT_CAP rows.
 */
export interface AuditExportParams extends AuditFilterQuery {
  format?: AuditExportFormat;
  q?: string;
}

/**
 * Response headers of an export (beyond the spec), so the console can show progress and "capped at 10,000":
 * the body is streamed (chunked), so there is no Content-Length.
 */
export const AUDIT_EXPORT_HEADERS = {
  /** Rows matching the filters, before the cap. */
  total: 'X-Total-Count',
  /** Rows this file holds: min(total, cap). Count received rows against it for progress. */
  rows: 'X-Export-Row-Count',
  /** `true` when total > cap. */
  truncated: 'X-Export-Truncated',
  /** The cap (10000). */
  cap: 'X-Export-Cap',
} as const;

/** CSV columns, in order (header row uses these names). `details` is the entry's details as JSON text. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'timestamp',
  'orgId',
  'actorType',
  'actorId',
  'actorName',
  'actorEmail',
  'actorRole',
  'action',
  'category',
  'resourceType',
  'resourceId',
  'resourceName',
  'result',
  'errorMessage',
  'ipAddress',
  'userAgent',
  'sessionId',
  'details',
] as const;

/** Reports and stats: `from`/`to` default to the last 30 days; `orgId` narrows to one organization in scope. */
export interface AuditReportQuery {
  from?: string;
  to?: string;
  orgId?: string;
}

/** GET /audit/reports/security-events also takes `latest` (1-100, default 20): how many latest entries to list. */
export interface AuditSecurityEventsQuery extends AuditReportQuery {
  latest?: number;
}

/** PUT /audit/retention?orgId= body. `archiveToS3: true` is refused (400 'Archiving to object storage is not
 * offered'). */
export interface AuditRetentionUpdate {
  retentionDays: number;
  archiveToS3?: boolean;
}

// ---- Entries ----

/** `changes{before,after}`: taken from an entry's `details.before` / `details.after` when the writer recorded them;
 * null when it did not (most entries name only `details.changedFields`). */
export interface AuditChanges {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Full format (GET /audit-logs/logs, /audit-logs/logs/:id, /audit-logs/search and their /audit aliases).
 * `user.role`: the actor's role name when the entry was written (recorded by the writer); entries written before
 * that was recorded show the actor's current role. Null for API keys, agents and the system.
 * Beyond the spec (additive): orgId, partnerId, actorType, errorMessage, sessionId, changes.
 */
export interface AuditEntry {
  id: string;
  timestamp: string;
  user: { id: string; name: string | null; email: string | null; role: string | null };
  action: string;
  resource: { type: string; id: string | null; name: string | null };
  category: AuditCategory;
  result: AuditResult;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
  /** The organization's chain; null for partner-chain and platform entries. */
  orgId: string | null;
  /** Set on partner-chain entries only (orgId null). */
  partnerId: string | null;
  actorType: AuditActorType;
  errorMessage: string | null;
  /** The console session (refresh family) of a user's request; null otherwise. */
  sessionId: string | null;
  changes: AuditChanges;
}

/** GET /audit-logs/logs, /audit-logs/search, /audit/logs, /audit/search. */
export type AuditEntryListResponse = Paginated<AuditEntry>;

/** GET /audit-logs/logs/:id, /audit/logs/:id (404 'Audit entry not found' when missing or out of scope). */
export type AuditEntryResponse = AuditEntry;

/** Flat format (GET /audit-logs, GET /audit). `resource`: the resource's name, else its id, else null. `department`
 * is always null (users have no department here). */
export interface AuditFlatEntry {
  id: string;
  timestamp: string;
  action: string;
  resource: string | null;
  resourceType: string;
  details: Record<string, unknown>;
  ipAddress: string | null;
  userAgent: string | null;
  sessionId: string | null;
  user: { name: string | null; email: string | null; role: string | null; department: string | null };
  changes: AuditChanges;
}

export interface AuditFlatListResponse {
  entries: AuditFlatEntry[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

// ---- Reports and stats (beyond the spec: shapes chosen to chart well) ----

/** Every report states the range it covers (the defaults filled in). */
export interface AuditRange {
  from: string;
  to: string;
}

/** One calendar day (UTC, `YYYY-MM-DD`); series are zero-filled so every day of the range is present. */
export type AuditDay = string;

export type AuditCategoryCounts = Record<AuditCategory, number>;

export interface AuditUserActivityRow {
  actorId: string;
  actorType: AuditActorType;
  name: string | null;
  email: string | null;
  role: string | null;
  total: number;
  byCategory: AuditCategoryCounts;
  /** Entries with result `failure`. */
  failures: number;
  /** Entries with result `denied`. */
  denied: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** GET /audit/reports/user-activity: actors by entries in the range, most active first, at most 500. */
export interface AuditUserActivityReport {
  range: AuditRange;
  users: AuditUserActivityRow[];
  /** More than 500 actors were active; the least active are left out. */
  truncated: boolean;
}

/** GET /audit/reports/security-events: the spec's security actions. */
export interface AuditSecurityEventsReport {
  range: AuditRange;
  actions: readonly string[];
  total: number;
  /** Non-success entries among them (failure or denied). */
  failures: number;
  /** Per day, a count per security action (every action key present, 0 when none). */
  byDay: Array<{ day: AuditDay; total: number; failures: number; counts: Record<string, number> }>;
  byAction: Array<{ action: string; count: number; failures: number }>;
  /** The latest entries, newest first (`latest` of them). */
  latest: AuditEntry[];
}

/** GET /audit/reports/compliance: the spec's compliance actions, grouped by action. */
export interface AuditComplianceReport {
  range: AuditRange;
  actions: readonly string[];
  total: number;
  groups: Array<{
    action: string;
    category: AuditCategory;
    count: number;
    success: number;
    failure: number;
    denied: number;
    /** Distinct actors that did it. */
    actors: number;
    lastAt: string | null;
  }>;
  byDay: Array<{ day: AuditDay; total: number }>;
}

/** GET /audit/stats: totals for the range, by category, result and day, plus the ten most frequent actions. */
export interface AuditStats {
  range: AuditRange;
  total: number;
  byCategory: AuditCategoryCounts;
  byResult: Record<AuditResult, number>;
  byDay: Array<{ day: AuditDay; total: number; success: number; failure: number; denied: number }>;
  topActions: Array<{ action: string; count: number }>;
}

// ---- Retention (beyond the spec's fields: endpoints and the cleanup's outcome) ----

/**
 * GET /audit/retention?orgId= (audit:read; orgId required for partner and system callers) and PUT (needs
 * organizations:write and an MFA session; audited as `audit.retention.update`). Archiving is not offered:
 * `archiveToS3` is always false and `archiveSupported` says so. The cleanup job runs hourly and deletes, in
 * batches, the organization's entries older than `retentionDays`; it keeps the chain verifiable with an anchor.
 */
export interface AuditRetentionPolicy {
  orgId: string;
  retentionDays: number;
  archiveToS3: false;
  archiveSupported: false;
  lastCleanupAt: string | null;
  /** Rows the last cleanup removed (0 when it found nothing old). */
  lastCleanupRemoved: number;
  updatedAt: string | null;
}

// ---- Verification (GET /audit-logs/verify, /audit/verify; status in GET /audit/chains) ----

/** A row as verification names it. */
export interface AuditRowRef {
  id: string;
  seq: number;
  timestamp: string;
  action: string;
}

/**
 * Where a chain fails. `checksum_mismatch`: `edited` is the row whose content no longer matches its checksum.
 * `chain_broken`: a row's link does not match the row before it: rows were removed between `removed.after` and
 * `removed.before` (or `removed.after` was rewritten with a new checksum). `head_mismatch`: the newest rows were
 * removed after `removed.after` (the head names `removed.expectedHeadSeq`), or the head was tampered with.
 * `anchor_mismatch`: the first kept row does not link to the retention anchor (rows removed at the start).
 */
export interface AuditChainProblem {
  reason: 'checksum_mismatch' | 'chain_broken' | 'head_mismatch' | 'anchor_mismatch';
  /** The row at which the problem shows (null when none, e.g. every row was removed). */
  entryId: string | null;
  seq: number | null;
  edited?: AuditRowRef;
  removed?: {
    after: AuditRowRef | null;
    before: AuditRowRef | null;
    /** head_mismatch: the sequence the chain head says is the newest. */
    expectedHeadSeq?: number | null;
  };
}

/** The retention cut a chain starts from (null: the chain starts at genesis). */
export interface AuditChainAnchor {
  /** The sequence and checksum of the last removed row: the first kept row links to this checksum. */
  seq: number;
  checksum: string;
  cutAt: string;
  /** Rows removed by all cuts so far. */
  rowsRemoved: number;
}

export interface AuditChainVerification {
  /** The chain key: an organization id, `partner:<id>`, or `platform`. */
  chain: string;
  orgId: string | null;
  partnerId: string | null;
  valid: boolean;
  /** Rows checked. */
  checked: number;
  /** The first problem found (kept for older clients). */
  problem?: AuditChainProblem;
  /** Every problem found, at most 20 per chain, in chain order. */
  problems: AuditChainProblem[];
  anchor: AuditChainAnchor | null;
  durationMs: number;
}

export interface AuditVerifyResponse {
  valid: boolean;
  chains: AuditChainVerification[];
  checkedAt: string;
  /** Rows checked across chains. */
  rowsChecked: number;
  durationMs: number;
}

/** GET /audit/chains: every chain in scope with its last stored verification (null before the first). */
export interface AuditChainStatus {
  chain: string;
  orgId: string | null;
  /** Organization name, or the partner's name for a partner chain; null for the platform chain. */
  name: string | null;
  partnerId: string | null;
  entryCount: number;
  anchor: AuditChainAnchor | null;
  lastVerifiedAt: string | null;
  lastResult: { valid: boolean; checked: number; durationMs: number; problems: AuditChainProblem[] } | null;
}

export interface AuditChainStatusResponse {
  chains: AuditChainStatus[];
}
