import { useCallback, useEffect, useState } from 'react';
import type { ElevationRequest } from '../../../../server/contract';
import { onLiveEvent } from '../../lib/live/socket';
import { navigate } from '../../lib/router';
import { canApproveNow } from './capability';
import { RISK_LABEL, flowLabel, requestPath, subjectOf } from './format';

// Desktop notifications for new elevation requests (a native notification inside Electron). The notifier runs
// for the whole signed-in session, whatever page is open: it starts when this module is first imported (the
// Approvals section is imported by App at start) and follows the console socket's event buffer.

export type NotificationPermissionState = NotificationPermission | 'unsupported';

const DISMISS_KEY = 'gatehouse.approvals.notifications-dismissed';

function supported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function notificationPermission(): NotificationPermissionState {
  return supported() ? Notification.permission : 'unsupported';
}

function describe(r: ElevationRequest): { title: string; body: string } {
  const who = r.subjectUsername ?? 'Someone';
  const what =
    r.flowType === 'ai_tool_action'
      ? `AI tool ${subjectOf(r)}${r.riskTier !== null ? ` (tier ${r.riskTier})` : ''}`
      : r.flowType === 'tech_jit_admin'
        ? 'a technician admin session'
        : `${subjectOf(r)}${r.targetExecutablePath && !r.targetExecutableSigner ? ' (unsigned)' : ''}`;
  return {
    title: `Elevation request on ${r.deviceHostname}`,
    body: `${who} asks for ${what}. ${RISK_LABEL[r.riskLevel]} risk · ${flowLabel(r)}`,
  };
}

const notified = new Set<string>();

function notify(r: ElevationRequest): void {
  if (notified.has(r.id)) return;
  notified.add(r.id);
  if (notificationPermission() !== 'granted') return;
  // Technicians who cannot approve get no notification.
  if (!canApproveNow()) return;
  const { title, body } = describe(r);
  try {
    const n = new Notification(title, { body, tag: `elevation-${r.id}` });
    n.onclick = () => {
      window.focus();
      navigate(requestPath(r.id));
      n.close();
    };
  } catch {
    // Some platforms refuse page-constructed notifications; the inbox still updates live.
  }
}

let started = false;

export function startElevationNotifier(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  onLiveEvent('elevation.requested', ({ data: request }) => {
    if (request.status === 'pending') notify(request);
  });
}

/** The notification permission, and a way to ask for it from a click (browsers refuse unprompted asks). */
export function useNotificationPermission(): {
  permission: NotificationPermissionState;
  dismissed: boolean;
  request: () => void;
  dismiss: () => void;
} {
  const [permission, setPermission] = useState(notificationPermission);
  const [dismissed, setDismissed] = useState(() => {
    try {
      return window.localStorage.getItem(DISMISS_KEY) === '1';
    } catch {
      return false;
    }
  });
  useEffect(() => {
    // The permission can change in another window or in the system settings.
    const onFocus = () => setPermission(notificationPermission());
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  const request = useCallback(() => {
    if (!supported()) return;
    void Notification.requestPermission().then(setPermission, () => setPermission(notificationPermission()));
  }, []);
  const dismiss = useCallback(() => {
    setDismissed(true);
    try {
      window.localStorage.setItem(DISMISS_KEY, '1');
    } catch {
      // Private windows may refuse storage; the prompt then comes back next time, which is fine.
    }
  }, []);
  return { permission, dismissed, request, dismiss };
}
