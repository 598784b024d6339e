import type {
  ActiveElevations,
  ActuateResponse,
  ApproverDeviceList,
  BulkRespondResponse,
  ElevationRequest,
  ElevationRequestDetail,
  ElevationRequestList,
  Paginated,
  RespondResponse,
  RevokeResponse,
  SimilarRequests,
} from '../../../../server/contract';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';
import { usePagedList, type PagedList } from '../../lib/paged-list';

// The endpoints of the Approvals section, typed by the contract. Each read is a `{key, fetch}` pair: the key
// names its entry in the query cache, which live pushes patch (useLiveList). Step-up answers to the writes
// (401 reauth_required / reauth_failed / assertion_failed) belong to the request, not to the session: the API
// client passes them through without refreshing.

export interface Read<T> {
  key: readonly unknown[];
  fetch: () => Promise<T>;
}

export interface RequestListQuery {
  status?: string;
  flowType?: string;
  order?: 'risk' | 'newest' | 'oldest';
  limit: number;
  page: number;
}

/** The inbox's filters (GET /pam/elevation-requests extensions); empty strings are left out of the query. */
export interface InboxFilters {
  q: string;
  /** Comma-separated risk levels. */
  riskLevel: string;
  flowType: string;
  orgId: string;
  device: string;
  user: string;
}

export const approvalsKeys = {
  all: ['pam', 'requests'] as const,
  inbox: (query: string) => ['pam', 'requests', 'inbox', query] as const,
  similar: (id: string) => ['pam', 'requests', 'similar', id] as const,
  detail: (id: string) => ['pam', 'request-detail', id] as const,
  approverDevices: ['pam', 'approver-devices'] as const,
};

/** Pages of the pending list as read by the kit's paged-list hook. */
const INBOX_PAGE = 100;

/** The pending inbox's query string: triage order, the filters that are set. */
export const inboxQuery = (f: InboxFilters) =>
  qs({
    status: 'pending',
    order: 'risk',
    limit: INBOX_PAGE,
    q: f.q.trim() || undefined,
    riskLevel: f.riskLevel || undefined,
    flowType: f.flowType || undefined,
    orgId: f.orgId || undefined,
    device: f.device.trim() || undefined,
    user: f.user.trim() || undefined,
  });

export interface BulkRespondBody {
  decision: 'approve' | 'deny';
  reason?: string;
  durationMinutes?: number;
  reauthPassword?: string;
  reauthMfaCode?: string;
  items: Array<{ id: string; proof?: unknown }>;
}

export interface RespondBody {
  decision: 'approve' | 'deny';
  reason?: string;
  durationMinutes?: number;
  proof?: unknown;
  reauthPassword?: string;
  reauthMfaCode?: string;
}

/** The password or the authenticator code that registering an approver device asks for again. */
export type Reauth = { reauthPassword: string } | { reauthMfaCode: string };

const requestPath = (id: string) => `/pam/elevation-requests/${encodeURIComponent(id)}`;

export const approvalsApi = {
  requests: (q: RequestListQuery): Read<ElevationRequestList> => {
    const path = `/pam/elevation-requests${qs({ ...q })}`;
    return { key: [...approvalsKeys.all, path], fetch: () => api<ElevationRequestList>(path) };
  },
  active: (): Read<ActiveElevations> => ({
    key: [...approvalsKeys.all, '/pam/active'],
    fetch: () => api<ActiveElevations>('/pam/active'),
  }),
  pendingCount: (): Read<number> => ({
    key: [...approvalsKeys.all, 'pending-count'],
    fetch: () =>
      api<ElevationRequestList>('/pam/elevation-requests?status=pending&limit=1').then(
        (r) => r.pagination.total,
      ),
  }),
  detail: (id: string): Read<ElevationRequestDetail> => ({
    key: approvalsKeys.detail(id),
    fetch: () => api<ElevationRequestDetail>(requestPath(id)),
  }),
  approverDevices: (): Read<ApproverDeviceList> => ({
    key: approvalsKeys.approverDevices,
    fetch: () => api<ApproverDeviceList>('/pam/approver-devices'),
  }),

  /** One page of the pending inbox (`query` from inboxQuery), shaped for usePagedList. */
  inboxPage: (query: string, page: number): Promise<Paginated<ElevationRequest>> =>
    api<ElevationRequestList>(`/pam/elevation-requests${query}&page=${page}`).then((r) => ({
      data: r.requests,
      pagination: r.pagination,
    })),
  similar: (id: string): Read<SimilarRequests> => ({
    key: approvalsKeys.similar(id),
    fetch: () => api<SimilarRequests>(`${requestPath(id)}/similar`),
  }),
  /** Each request decided on its own by the server; the answer says which were decided, skipped or refused. */
  bulkRespond: (body: BulkRespondBody) =>
    api<BulkRespondResponse>('/pam/elevation-requests/bulk-respond', { method: 'POST', body }),

  respond: (id: string, body: RespondBody) =>
    api<RespondResponse>(`${requestPath(id)}/respond`, { method: 'POST', body }),
  assertionChallenge: (id: string) =>
    api<{ success: true; options: unknown }>(`${requestPath(id)}/assertion-challenge`, {
      method: 'POST',
      body: {},
    }),
  revoke: (id: string, reason: string) =>
    api<RevokeResponse>(`${requestPath(id)}/revoke`, { method: 'POST', body: { reason } }),
  /** Sends an approved elevation to its device. */
  actuate: (deviceId: string, elevationRequestId: string) =>
    api<ActuateResponse>(`/devices/${encodeURIComponent(deviceId)}/actuate-elevation`, {
      method: 'POST',
      body: { elevationRequestId },
    }),
  registrationOptions: () =>
    api<{ success: true; options: PublicKeyCredentialCreationOptionsJSON }>(
      '/pam/approver-devices/registration-options',
      { method: 'POST', body: {} },
    ),
  registerApproverDevice: (name: string, response: RegistrationResponseJSON, reauth: Reauth) =>
    api<void>('/pam/approver-devices', { method: 'POST', body: { name, response, ...reauth } }),
  removeApproverDevice: (id: string) =>
    api<void>(`/pam/approver-devices/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};

/** The pending inbox under `query` (inboxQuery): pages of 100 appended as the technician scrolls. */
export function useInboxList(query: string): PagedList<ElevationRequest> {
  return usePagedList(approvalsKeys.inbox(query), (page) => approvalsApi.inboxPage(query, page));
}
