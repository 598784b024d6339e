import type { ElevationRequest, RiskLevel } from '../../../../server/contract';
import { navigate } from '../../lib/router';
import type { InboxFilters } from './api';

// The inbox's filters live in the address (`/approvals?risk=critical&org=...`), so a tile elsewhere can link to a
// filtered inbox and a reload keeps the view. A request pushed live is pinned on top only when it matches them.

export const RISKS: readonly RiskLevel[] = ['critical', 'high', 'medium', 'low'];

export const NO_FILTERS: InboxFilters = {
  q: '',
  riskLevel: '',
  flowType: '',
  orgId: '',
  device: '',
  user: '',
};

const PARAM: Record<keyof InboxFilters, string> = {
  q: 'q',
  riskLevel: 'risk',
  flowType: 'flow',
  orgId: 'org',
  device: 'device',
  user: 'user',
};

export function readInboxFilters(search: string): InboxFilters {
  const params = new URLSearchParams(search);
  const out = { ...NO_FILTERS };
  for (const key of Object.keys(PARAM) as Array<keyof InboxFilters>) out[key] = params.get(PARAM[key]) ?? '';
  return out;
}

export function writeInboxFilters(filters: InboxFilters): void {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAM) as Array<keyof InboxFilters>)
    if (filters[key]) params.set(PARAM[key], filters[key]);
  const text = params.toString();
  navigate(text ? `/approvals?${text}` : '/approvals', { replace: true });
}

export const riskList = (filters: InboxFilters): RiskLevel[] =>
  filters.riskLevel ? (filters.riskLevel.split(',') as RiskLevel[]) : [];

export const isFiltered = (filters: InboxFilters): boolean => Object.values(filters).some(Boolean);

const contains = (value: string | null, text: string) =>
  text === '' || (value ?? '').toLowerCase().includes(text.trim().toLowerCase());

/** The server's filters, applied to one request the console socket pushed (the same fields, case-insensitive). */
export function matchesInbox(r: ElevationRequest, f: InboxFilters): boolean {
  const risks = riskList(f);
  const q = f.q.trim();
  return (
    r.status === 'pending' &&
    (risks.length === 0 || risks.includes(r.riskLevel)) &&
    (!f.flowType || r.flowType === f.flowType) &&
    (!f.orgId || r.orgId === f.orgId) &&
    contains(r.deviceHostname, f.device) &&
    contains(r.subjectUsername, f.user) &&
    (q === '' ||
      [
        r.targetExecutablePath,
        r.targetExecutableSigner,
        r.commandLine,
        r.toolName,
        r.subjectUsername,
        r.deviceHostname,
      ].some((v) => contains(v, q)))
  );
}
