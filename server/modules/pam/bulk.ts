import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { BulkRespondResponse, BulkRespondResult } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { HttpError } from '../../http/errors';
import { respond } from './decisions';
import type { BulkRespondBody } from './schemas';

// One decision for several pending requests (bulk deny in the inbox, "decide similar" on a request page). Each
// request goes through the same respond() as a single decision, one after the other: its own compare-and-swap
// in its own transaction, its own step-up (its risk, its partner's floor, its own assertion), its own audit entry
// and push after commit. A request someone else decided meanwhile is skipped and said; a refusal of one request
// does not stop the others.

/** A refusal that says the caller's re-authentication is wrong or throttled: trying it again only counts more. */
const REAUTH_STOPS = new Set(['reauth_failed']);

function failure(id: string, err: HttpError): BulkRespondResult {
  // 404: gone from the caller's view meanwhile; 409: decided, expired or timed out meanwhile.
  if (err.status === 404 || err.status === 409) {
    return { id, outcome: 'skipped', error: err.message, ...(err.code ? { code: err.code } : {}) };
  }
  const requiredLevel = err.extra.requiredLevel;
  return {
    id,
    outcome: 'failed',
    status: err.status,
    error: err.message,
    ...(err.code ? { code: err.code } : {}),
    ...(typeof requiredLevel === 'number' ? { requiredLevel } : {}),
  };
}

export async function bulkRespond(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: BulkRespondBody,
): Promise<BulkRespondResponse> {
  const { items, ...decision } = body;
  const results: BulkRespondResult[] = [];
  let stopped: HttpError | null = null;
  for (const item of items) {
    if (stopped) {
      results.push(failure(item.id, stopped));
      continue;
    }
    try {
      const {
        success: _success,
        id,
        ...answer
      } = await respond(ctx, req, auth, item.id, {
        ...decision,
        ...(item.proof ? { proof: item.proof } : {}),
      });
      results.push({ id, outcome: 'decided', ...answer });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A wrong password or code, or a throttled account, fails the rest unsent rather than spend more guesses.
      if ((err.code && REAUTH_STOPS.has(err.code)) || err.status === 429) stopped = err;
      results.push(failure(item.id, err));
    }
  }
  const count = (outcome: BulkRespondResult['outcome']) =>
    results.filter((r) => r.outcome === outcome).length;
  return {
    success: true,
    decided: count('decided'),
    skipped: count('skipped'),
    failed: count('failed'),
    results,
  };
}
