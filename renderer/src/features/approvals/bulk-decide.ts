import {
  startAuthentication,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { BulkRespondResult, ElevationRequest, StepUpRequirement } from '../../../../server/contract';
import { dispatch } from './actions';
import { queryClient } from '../../lib/query';
import { approvalsApi, approvalsKeys } from './api';
import { ceremonyCancelled, webAuthnMessage } from './actions';

// One decision for several requests (Deny selected in the inbox, "decide similar" on a request page). The server
// decides each on its own (POST /pam/elevation-requests/bulk-respond); here each approve first gets its own
// confirmation on the approver device when the technician has one (an assertion is bound to one request), and each
// approved elevation is then sent to its device, as a single approve does. A password or code is checked once by the
// server for all the requests of a call (an authenticator code can be spent only once).

/** The most requests POST /pam/elevation-requests/bulk-respond takes at once. */
const BULK_LIMIT = 100;

export interface BulkInput {
  decision: 'approve' | 'deny';
  reason?: string;
  durationMinutes?: number;
  reauthPassword?: string;
  reauthMfaCode?: string;
}

export interface BulkTarget {
  request: ElevationRequest;
  /** What approving it needs (the similar list carries it); absent for denials. */
  stepUp?: StepUpRequirement;
}

/** One request's outcome, for the summary under the action. */
export interface BulkLine {
  request: ElevationRequest;
  kind: 'done' | 'skipped' | 'failed';
  text: string;
  code?: string;
  /** An approved elevation that was sent to its device. */
  sent?: boolean;
}

export interface BulkSummary {
  decision: 'approve' | 'deny';
  done: number;
  skipped: number;
  failed: number;
  /** Approved elevations sent to their devices. */
  sent: number;
  lines: BulkLine[];
}

export type BulkPhase =
  { step: 'confirming'; index: number; of: number } | { step: 'sending' } | { step: 'dispatching' };

/** Confirms each approve on the approver device where needed; a cancelled one is left out and said. */
async function proofs(
  targets: BulkTarget[],
  onPhase: (phase: BulkPhase) => void,
): Promise<{ items: Array<{ id: string; proof?: AuthenticationResponseJSON }>; cancelled: BulkLine[] }> {
  const items: Array<{ id: string; proof?: AuthenticationResponseJSON }> = [];
  const cancelled: BulkLine[] = [];
  for (const [index, { request, stepUp }] of targets.entries()) {
    if (!stepUp?.hasApproverDevice) {
      items.push({ id: request.id });
      continue;
    }
    onPhase({ step: 'confirming', index: index + 1, of: targets.length });
    const { options } = await approvalsApi.assertionChallenge(request.id);
    const optionsJSON = options as PublicKeyCredentialRequestOptionsJSON;
    if (!optionsJSON.allowCredentials?.length) {
      items.push({ id: request.id });
      continue;
    }
    try {
      items.push({ id: request.id, proof: await startAuthentication({ optionsJSON }) });
    } catch (err) {
      cancelled.push({
        request,
        kind: ceremonyCancelled(err) ? 'skipped' : 'failed',
        text: webAuthnMessage(err),
      });
    }
  }
  return { items, cancelled };
}

function lineOf(
  request: ElevationRequest,
  result: BulkRespondResult,
  decision: 'approve' | 'deny',
): BulkLine {
  if (result.outcome === 'decided') {
    if (result.status === 'denied' && result.enforcementStatus === 'refused')
      return {
        request,
        kind: 'failed',
        text: `Refused: ${result.reason ?? 'the server would not approve it.'}`,
      };
    return { request, kind: 'done', text: decision === 'approve' ? 'Approved' : 'Denied' };
  }
  if (result.outcome === 'skipped') {
    const text =
      result.code === 'NOT_PENDING'
        ? 'Skipped: already decided (or expired) meanwhile'
        : `Skipped: ${result.error}`;
    return { request, kind: 'skipped', text, ...(result.code ? { code: result.code } : {}) };
  }
  return { request, kind: 'failed', text: result.error, ...(result.code ? { code: result.code } : {}) };
}

export async function decideMany(
  targets: BulkTarget[],
  input: BulkInput,
  onPhase: (phase: BulkPhase) => void = () => {},
): Promise<BulkSummary> {
  const byId = new Map(targets.map((t) => [t.request.id, t.request]));
  const { items, cancelled } =
    input.decision === 'approve'
      ? await proofs(targets, onPhase)
      : { items: targets.map((t) => ({ id: t.request.id })), cancelled: [] };
  const lines: BulkLine[] = [...cancelled];
  if (items.length > 0) {
    onPhase({ step: 'sending' });
    // The server takes at most BULK_LIMIT requests per call; a larger selection goes in several calls.
    const results: BulkRespondResult[] = [];
    for (let at = 0; at < items.length; at += BULK_LIMIT) {
      const answer = await approvalsApi.bulkRespond({ ...input, items: items.slice(at, at + BULK_LIMIT) });
      results.push(...answer.results);
    }
    const decided: Array<{ line: BulkLine; pending: boolean }> = [];
    for (const result of results) {
      const request = byId.get(result.id);
      if (!request) continue;
      const line = lineOf(request, result, input.decision);
      lines.push(line);
      if (line.kind === 'done' && result.outcome === 'decided')
        decided.push({ line, pending: result.enforcementStatus === 'pending_dispatch' });
    }
    // Approved elevations go to their devices at once, as a single approve does.
    const toSend = decided.filter((d) => d.pending);
    if (toSend.length > 0) onPhase({ step: 'dispatching' });
    for (const { line } of toSend) {
      try {
        const outcome = await dispatch(line.request);
        line.sent = outcome.kind === 'sent';
        line.text =
          outcome.kind === 'sent'
            ? 'Approved and sent to the device'
            : `Approved; not sent: ${outcome.message}`;
      } catch (err) {
        line.text = `Approved; sending failed (${err instanceof Error ? err.message : 'unknown error'}): use Dispatch on the request`;
      }
    }
  }
  // Every list, count and detail of requests is stale now: re-read them (the pushes would, a moment later).
  void queryClient.invalidateQueries({ queryKey: approvalsKeys.all });
  const count = (kind: BulkLine['kind']) => lines.filter((l) => l.kind === kind).length;
  return {
    decision: input.decision,
    done: count('done'),
    skipped: count('skipped'),
    failed: count('failed'),
    sent: lines.filter((l) => l.sent).length,
    lines,
  };
}
