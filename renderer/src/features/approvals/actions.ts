import { WebAuthnError } from '@simplewebauthn/browser';
import type { ElevationRequest } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { approvalsApi } from './api';

// What the Approvals screens make of their writes' answers: a dispatch's calm outcomes, a WebAuthn ceremony's
// failures in plain words.

export type DispatchOutcome =
  | { kind: 'sent'; commandId: string }
  | { kind: 'actuator_off'; message: string }
  | { kind: 'already'; message: string };

/**
 * Sends an approved elevation to its device. "Actuator disabled" and "already claimed / wrong status" are
 * outcomes to show calmly, not failures; anything else throws.
 */
export async function dispatch(request: Pick<ElevationRequest, 'id' | 'deviceId'>): Promise<DispatchOutcome> {
  try {
    const res = await approvalsApi.actuate(request.deviceId, request.id);
    return { kind: 'sent', commandId: res.commandId };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'PAM_ACTUATOR_DISABLED')
      return { kind: 'actuator_off', message: err.message };
    if (err instanceof ApiError && err.status === 409) return { kind: 'already', message: err.message };
    throw err;
  }
}

/** A WebAuthn ceremony the person cancelled or let time out (nothing to report beyond "try again"). */
export function ceremonyCancelled(err: unknown): boolean {
  if (err instanceof WebAuthnError)
    return err.code === 'ERROR_CEREMONY_ABORTED' || err.name === 'NotAllowedError';
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}

export function webAuthnMessage(err: unknown): string {
  if (ceremonyCancelled(err))
    return 'The confirmation on this computer was cancelled or timed out. Nothing was sent; try again.';
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This computer is already registered as one of your approver devices.';
  if (err instanceof Error && err.name === 'SecurityError')
    return 'This computer refused the request for the console’s address (WebAuthn needs a secure origin).';
  if (err instanceof Error && err.name === 'NotSupportedError')
    return 'This computer has no platform authenticator (Windows Hello, Touch ID) that can do this.';
  return err instanceof Error ? err.message : 'The authenticator could not complete the request.';
}
