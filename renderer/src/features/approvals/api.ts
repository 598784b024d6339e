import type {
  BulkRespondBody,
  ElevationRequest,
  ElevationRequestListQuery,
  Paginated,
  RespondBody,
  ApproverDeviceReauth,
} from '../../../../server/contract';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { call } from '../../lib/api/endpoints';
import { usePagedList, type PagedList } from '../../lib/paged-list';
import { FLOW_TYPES, STATUSES } from './format';

// The endpoints of the Approvals section, typed by the contract. Each read is a `{key, fetch}` pair: the key
// names its entry in the query cache, which live pushes patch (useLiveList). Step-up answers to the writes
// (401 reauth_required / reauth_failed / assertion_failed) belong to the request, not to the session: the API
// client passes them through without refreshing.

export interface Read<T> {
  key: readonly unknown[];
  fetch: () => Promise<T>;
}

/** The history's filters as the address holds them ('' or unknown: no filter). */
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
  list: (query: ElevationRequestListQuery) => ['pam', 'requests', 'list', query] as const,
  inbox: (query: ElevationRequestListQuery) => ['pam', 'requests', 'inbox', query] as const,
  similar: (id: string) => ['pam', 'requests', 'similar', id] as const,
  detail: (id: string) => ['pam', 'request-detail', id] as const,
  approverDevices: ['pam', 'approver-devices'] as const,
};

// A filter the server does not know (a hand-edited address) is left out rather than refused.
const knownStatus = (value: string | undefined) => STATUSES.find((s) => s === value);
const knownFlowType = (value: string | undefined) => FLOW_TYPES.find((f) => f === value);

/** Pages of the pending list as read by the kit's paged-list hook. */
const INBOX_PAGE = 100;

/** The pending inbox's query: triage order, the filters that are set. */
export const inboxQuery = (f: InboxFilters): ElevationRequestListQuery => ({
  status: 'pending',
  order: 'risk',
  limit: INBOX_PAGE,
  q: f.q.trim() || undefined,
  riskLevel: f.riskLevel || undefined,
  flowType: knownFlowType(f.flowType),
  orgId: f.orgId || undefined,
  device: f.device.trim() || undefined,
  user: f.user.trim() || undefined,
});

export const approvalsApi = {
  requests: (q: RequestListQuery) => {
    const query = { ...q, status: knownStatus(q.status), flowType: knownFlowType(q.flowType) };
    return {
      key: approvalsKeys.list(query),
      fetch: () => call('GET /pam/elevation-requests', { query }),
    };
  },
  active: () => ({
    key: [...approvalsKeys.all, '/pam/active'],
    fetch: () => call('GET /pam/active'),
  }),
  pendingCount: (): Read<number> => ({
    key: [...approvalsKeys.all, 'pending-count'],
    fetch: () =>
      call('GET /pam/elevation-requests', { query: { status: 'pending', limit: 1 } }).then(
        (r) => r.pagination.total,
      ),
  }),
  detail: (id: string) => ({
    key: approvalsKeys.detail(id),
    fetch: () => call('GET /pam/elevation-requests/:id', { params: { id } }),
  }),
  approverDevices: () => ({
    key: approvalsKeys.approverDevices,
    fetch: () => call('GET /pam/approver-devices'),
  }),

  /** One page of the pending inbox (`query` from inboxQuery), shaped for usePagedList. */
  inboxPage: (query: ElevationRequestListQuery, page: number): Promise<Paginated<ElevationRequest>> =>
    call('GET /pam/elevation-requests', { query: { ...query, page } }).then((r) => ({
      data: r.requests,
      pagination: r.pagination,
    })),
  similar: (id: string) => ({
    key: approvalsKeys.similar(id),
    fetch: () => call('GET /pam/elevation-requests/:id/similar', { params: { id } }),
  }),
  /** Each request decided on its own by the server; the answer says which were decided, skipped or refused. */
  bulkRespond: (body: BulkRespondBody) => call('POST /pam/elevation-requests/bulk-respond', { body }),

  respond: (id: string, body: RespondBody) =>
    call('POST /pam/elevation-requests/:id/respond', { params: { id }, body }),
  assertionChallenge: (id: string) =>
    call('POST /pam/elevation-requests/:id/assertion-challenge', { params: { id } }),
  revoke: (id: string, reason: string) =>
    call('POST /pam/elevation-requests/:id/revoke', { params: { id }, body: { reason } }),
  /** Sends an approved elevation to its device. */
  actuate: (deviceId: string, elevationRequestId: string) =>
    call('POST /devices/:id/actuate-elevation', { params: { id: deviceId }, body: { elevationRequestId } }),
  registrationOptions: () => call('POST /pam/approver-devices/registration-options'),
  registerApproverDevice: (name: string, response: RegistrationResponseJSON, reauth: ApproverDeviceReauth) =>
    call('POST /pam/approver-devices', { body: { name, response, ...reauth } }),
  removeApproverDevice: (id: string) => call('DELETE /pam/approver-devices/:id', { params: { id } }),
};

/** The pending inbox under `query` (inboxQuery): pages of 100 appended as the technician scrolls. */
export function useInboxList(query: ElevationRequestListQuery): PagedList<ElevationRequest> {
  return usePagedList(approvalsKeys.inbox(query), (page) => approvalsApi.inboxPage(query, page));
}
