import type { Request } from 'express';
import type { AppContext } from '../../context';
import type { BulkRespondResponse, BulkRespondResult } from '../../contract';
import type { AuthContext } from '../../http/auth-context';
import { HttpError } from '../../http/errors';
import { userById } from '../users';
import { respond } from './decisions';
import type { BulkRespondBody } from './schemas';
import { reauthForSet, type SharedReauth } from './step-up';
import { spendApprovalChallenges } from './webauthn';

// One decision for several pending requests (bulk deny in the inbox, "decide similar" on a request page). Each
// request goes through the same respond() as a single decision, one after the other: its own compare-and-swap
// in its own transaction, its own step-up (its risk, its partner's floor, its own assertion), its own audit entry
// and push after commit. A request someone else decided meanwhile is skipped and said; a refusal of one request
// does not stop the others. The one exception is re-authentication: checked once for the whole set before any
// request is decided (step-up.ts reauthForSet), since an MFA code is spent by its first check and a set must not
// need one code per request; each decision still records that it used the shared ceremony.

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
  const { items, reauthPassword, reauthMfaCode, ...decision } = body;
  const results: BulkRespondResult[] = [];
  let stopped: HttpError | null = null;
  let shared: SharedReauth | null = null;
  const user = auth.kind === 'user' ? userById(ctx.db, auth.userId) : undefined;
  // Only an approve is ever held up by re-authentication (a deny never is), so only an approve checks it.
  if (decision.decision === 'approve' && user) {
    try {
      const ids = items.map((i) => i.id);
      shared = await reauthForSet(ctx, req, user, { reauthPassword, reauthMfaCode }, ids);
    } catch (err) {
      // A wrong password or code, or a throttled account, fails the whole set unsent: one guess counted, not one
      // per request.
      if (!(err instanceof HttpError)) throw err;
      stopped = err;
      const proved = items.filter((i) => i.proof).map((i) => i.id);
      spendApprovalChallenges(ctx, user.id, proved);
    }
  }
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
      } = await respond(
        ctx,
        req,
        auth,
        item.id,
        { ...decision, ...(item.proof ? { proof: item.proof } : {}) },
        shared,
      );
      results.push({ id, outcome: 'decided', ...answer });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A throttled account fails the rest unsent rather than count more attempts.
      if (err.status === 429) stopped = err;
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
