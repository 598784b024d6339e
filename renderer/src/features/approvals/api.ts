import type {
  ActiveElevations,
  ActuateResponse,
  ApproverDeviceList,
  ElevationRequestDetail,
  ElevationRequestList,
  RespondResponse,
  RevokeResponse,
} from '../../../../server/contract';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api } from '../../lib/api/client';
import { qs } from '../../lib/forms';

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
  order?: 'newest' | 'oldest';
  limit: number;
  page: number;
}

export const approvalsKeys = {
  all: ['pam', 'requests'] as const,
  detail: (id: string) => ['pam', 'request-detail', id] as const,
  approverDevices: ['pam', 'approver-devices'] as const,
};

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
