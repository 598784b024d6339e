import type { AppContext } from '../../context';
import type { DeviceEventLogEntry, DiagnosticLogEntry, Paginated } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { paginated } from '../../http/pagination';
import { requireDevice } from '../devices';
import type { DiagnosticLogsQuery, EventLogsQuery } from './schemas';
import { diagnosticLogs, eventLogs } from './store';

// Stored device logs (spec 2 table): what agents submitted, read back one device at a time. The device must be
// visible to the caller (404 otherwise); a decommissioned device's logs stay readable as its history. Reads are
// not audited, like every other read of the API.

export function queryDiagnosticLogs(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  query: DiagnosticLogsQuery,
): Paginated<DiagnosticLogEntry> {
  const device = requireDevice(ctx, auth, deviceId);
  const { data, total } = diagnosticLogs(ctx.db, device.id, query, query);
  return paginated(data, query, total);
}

export function queryEventLogs(
  ctx: AppContext,
  auth: AuthContext,
  deviceId: string,
  query: EventLogsQuery,
): Paginated<DeviceEventLogEntry> {
  const device = requireDevice(ctx, auth, deviceId);
  const { data, total } = eventLogs(ctx.db, device.id, query, query);
  return paginated(data, query, total);
}
