import type { DeviceStatus, DeviceSummary, OsType } from '../../../../server/contract';

export type { Tone } from '../../ui';
import type { Tone } from '../../ui';

export const STATUS_TONE: Record<DeviceStatus, Tone> = {
  online: 'ok',
  offline: 'muted',
  maintenance: 'warn',
  quarantined: 'bad',
  decommissioned: 'muted',
};

export const STATUS_LABEL: Record<DeviceStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  maintenance: 'Maintenance',
  quarantined: 'Quarantined',
  decommissioned: 'Decommissioned',
};

export const OS_LABEL: Record<OsType, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

export function deviceName(d: Pick<DeviceSummary, 'displayName' | 'hostname'>): string {
  return d.displayName?.trim() || d.hostname;
}

/** "3m ago" from an ISO time; "never" when the device has not reported. */
export function ago(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const diff = Math.max(0, Math.round((now - t) / 1000));
  if (diff < 10) return 'just now';
  if (diff < 60) return `${diff}s ago`;
  if (diff < 3600) return `${Math.floor(diff / 60)}m ago`;
  if (diff < 86_400) return `${Math.floor(diff / 3600)}h ago`;
  if (diff < 86_400 * 60) return `${Math.floor(diff / 86_400)}d ago`;
  return `${Math.floor(diff / (86_400 * 30))}mo ago`;
}

export function uptime(seconds: number | null): string {
  if (seconds === null || seconds < 0) return '—';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return `${m}m`;
}

export function megabytes(mb: number | null): string {
  if (mb === null) return '—';
  if (mb >= 1024) return `${(mb / 1024).toFixed(mb % 1024 === 0 ? 0 : 1)} GB`;
  return `${mb} MB`;
}

export function gigabytes(gb: number | null): string {
  if (gb === null) return '—';
  if (gb >= 1024) return `${(gb / 1024).toFixed(1)} TB`;
  return `${gb} GB`;
}

export function percentTone(p: number | null): Tone {
  if (p === null) return 'muted';
  if (p >= 90) return 'bad';
  if (p >= 75) return 'warn';
  return 'ok';
}
