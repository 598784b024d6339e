import type {
  AssuranceLevel,
  AssuranceMethod,
  DecisionSource,
  ElevationEventType,
  ElevationFlowType,
  ElevationRequest,
  ElevationStatus,
  EnforcementStatus,
  OsType,
  RiskLevel,
} from '../../../../server/contract';

// Words and tones for elevation requests, shared by the inbox, the request view, the notifications and the
// elevation policy screens.

export type { Tone } from '../../ui';
import type { Tone } from '../../ui';

/** What a list of elevation requests says when the caller's role cannot read them. */
export const REQUESTS_FORBIDDEN = {
  title: 'Elevation requests are not available to you',
  text: 'Your account cannot read elevation requests.',
};

/** What each flow is, across platforms (filters, lists of flows); one request reads as flowLabel() says. */
export const FLOW_LABEL: Record<ElevationFlowType, string> = {
  uac_intercept: 'UAC or sudo prompt',
  tech_jit_admin: 'Technician admin (JIT)',
  ai_tool_action: 'AI tool action',
};

/** An intercepted elevation prompt as the device's platform shows it. */
const PROMPT_LABEL: Record<OsType, string> = {
  windows: 'UAC prompt',
  macos: 'Admin prompt',
  linux: 'sudo prompt',
};

/** One request's flow in the words of its device's platform: a `.deb` on Linux is a sudo prompt, not UAC. */
export function flowLabel(r: Pick<ElevationRequest, 'flowType' | 'deviceOsType'>): string {
  return r.flowType === 'uac_intercept' ? PROMPT_LABEL[r.deviceOsType] : FLOW_LABEL[r.flowType];
}

export const FLOW_TYPES = Object.keys(FLOW_LABEL) as ElevationFlowType[];

/** Splits a table of `[words, tone]` by key into its words and its tones. */
function split<K extends string>(table: Record<K, readonly [string, Tone]>) {
  const entries = Object.entries(table) as Array<[K, readonly [string, Tone]]>;
  return {
    label: Object.fromEntries(entries.map(([k, [words]]) => [k, words])) as Record<K, string>,
    tone: Object.fromEntries(entries.map(([k, [, tone]]) => [k, tone])) as Record<K, Tone>,
  };
}

const STATUS = split<ElevationStatus>({
  pending: ['Pending', 'warn'],
  approved: ['Approved', 'ok'],
  auto_approved: ['Auto-approved', 'ok'],
  actuating: ['Actuating', 'ok'],
  denied: ['Denied', 'bad'],
  revoked: ['Revoked', 'muted'],
  expired: ['Expired', 'muted'],
});
export const STATUS_LABEL = STATUS.label;
export const STATUS_TONE = STATUS.tone;
export const STATUSES = Object.keys(STATUS_LABEL) as ElevationStatus[];

const ENFORCEMENT = split<EnforcementStatus>({
  pending_dispatch: ['Not sent to the device', 'warn'],
  dispatched: ['Sent, awaiting agent', 'warn'],
  active: ['Active on the device', 'ok'],
  failed: ['Failed on the device', 'bad'],
  cleanup_pending: ['Cleanup sent', 'warn'],
  cleaned_up: ['Cleaned up', 'muted'],
  refused: ['Refused by the server', 'bad'],
});
export const ENFORCEMENT_LABEL = ENFORCEMENT.label;
export const ENFORCEMENT_TONE = ENFORCEMENT.tone;

/**
 * A live request's state as the device last reported it: spec 2 keeps `status` at `actuating` (or approved) while
 * the grant is in force, so "Actuating" would go on saying the command is under way long after the agent said the
 * grant is active, or that it failed. Ended requests (revoked, expired) keep their status: how the clean-up went
 * is the enforcement's own line.
 */
export function requestState(r: Pick<ElevationRequest, 'status' | 'enforcementStatus'>): {
  label: string;
  tone: Tone;
} {
  const live = r.status === 'actuating' || r.status === 'approved' || r.status === 'auto_approved';
  if (live && r.enforcementStatus === 'active') return { label: 'Active on the device', tone: 'ok' };
  if (live && r.enforcementStatus === 'failed') return { label: 'Failed on the device', tone: 'bad' };
  if (r.status === 'actuating' && r.enforcementStatus === 'dispatched')
    return { label: 'Sent to the device', tone: 'ok' };
  return { label: STATUS_LABEL[r.status], tone: STATUS_TONE[r.status] };
}

/** The grant lengths a technician picks from, in minutes (the value sent), each with its label. */
export const GRANT_DURATION_LABEL: Record<string, string> = {
  '15': '15 minutes',
  '60': '1 hour',
  '240': '4 hours',
  '480': '8 hours',
};

export const RISK_LABEL: Record<RiskLevel, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

export const DECISION_SOURCE_LABEL: Record<DecisionSource, string> = {
  software_policy: 'Software policy',
  pam_rule: 'PAM rule',
  human: 'Technician',
};

const METHOD_LABEL: Record<AssuranceMethod, string> = {
  automation: 'Automatic decision',
  session: 'Session only',
  session_reauth: 'Session + re-auth',
  platform_authenticator: 'Platform authenticator',
  platform_authenticator_reauth: 'Platform authenticator + re-auth',
};

export const LEVEL_MEANING: Record<AssuranceLevel, string> = {
  0: 'an automatic decision, with no technician',
  1: 'your signed-in session',
  2: 'an approver device such as Windows Hello or Touch ID',
  3: 'an approver device plus your password or code',
};

/** "Platform authenticator + re-auth (L3)". */
export function assuranceText(level: AssuranceLevel | null, method: AssuranceMethod | null): string {
  if (level === null && method === null) return '—';
  const words = method ? METHOD_LABEL[method] : 'Unknown method';
  return level === null ? words : `${words} (L${level})`;
}

export const EVENT_LABEL: Record<ElevationEventType, string> = {
  'elevation.requested': 'Requested',
  'elevation.auto_approved': 'Auto-approved',
  'elevation.approved': 'Approved',
  'elevation.denied': 'Denied',
  'elevation.actuating': 'Sent to the device',
  'elevation.enforcement_changed': 'Device state changed',
  'elevation.revoked': 'Revoked',
  'elevation.expired': 'Expired',
};

/** The request view of one request. */
export function requestPath(id: string): string {
  return `/approvals/${encodeURIComponent(id)}`;
}

/** The last segment of a Windows or POSIX path. */
export function fileName(path: string | null): string | null {
  if (!path) return null;
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** What is asking, in a few words: the executable's file name, the AI tool, or the flow. */
export function subjectOf(
  r: Pick<ElevationRequest, 'flowType' | 'toolName' | 'targetExecutablePath'>,
): string {
  if (r.flowType === 'ai_tool_action') return r.toolName ?? 'AI tool action';
  return fileName(r.targetExecutablePath) ?? (r.flowType === 'tech_jit_admin' ? 'Admin session' : 'Unknown');
}

/** "45 min", "2 h", "1 h 30 min". */
export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** "4m 05s" style, or "2d 3h" beyond a day (a stuck row should not read like a clock). */
export function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/** Pending for this long reads as urgent: the server expires pending rows after 15 minutes by default. */
export function waitingTone(ms: number): Tone {
  if (ms >= 10 * 60_000) return 'bad';
  if (ms >= 4 * 60_000) return 'warn';
  return 'muted';
}

/** Approved by a technician but not yet sent to the device (Dispatch sends it). */
export function awaitsDispatch(r: Pick<ElevationRequest, 'status' | 'enforcementStatus'>): boolean {
  return r.status === 'approved' && r.enforcementStatus === 'pending_dispatch';
}

/** Who decided, in words: a person, a rule, a policy, or the organization default. */
export function deciderOf(r: ElevationRequest): string | null {
  if (r.status === 'revoked' && r.revokedByName) return r.revokedByName;
  if (r.approvedByName) return r.approvedByName;
  if (r.deniedByName) return r.deniedByName;
  if (r.decisionSource === 'pam_rule') return r.pamRuleName ? `Rule “${r.pamRuleName}”` : 'PAM rule';
  if (r.decisionSource === 'software_policy')
    return r.matchedPolicyName ? `Policy “${r.matchedPolicyName}”` : 'Software policy';
  // The spec leaves decisionSource null for the organization default; its denial names it in the reason.
  if (r.status === 'denied' && r.decisionSource === null && r.decisionReason) return 'Organization default';
  return null;
}

/** Milliseconds from now to an ISO time (negative when past); null for a missing or unreadable one. */
export function msUntil(iso: string | null, now: number): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t - now;
}

/** Milliseconds since an ISO time; 0 for a missing, unreadable or future one. */
export function msSince(iso: string | null, now: number): number {
  return Math.max(0, -(msUntil(iso, now) ?? 0));
}
