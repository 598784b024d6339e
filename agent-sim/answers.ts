import { afterServerDelay } from './random';
import { retryAfterMs, type AnswerHeaders, type HttpAnswer } from './transport';

// Reading the server's answers the way every part of an agent does: how long to back off, what the error said,
// whether the server still knows this agent.

/** Transient failures (refused connection, 5xx, a dropped socket) back off up to this long. */
export const BACKOFF_CAP_MS = 30_000;
/** Refused by policy (decommissioned, partner inactive): no point knocking often. */
export const REFUSED_BACKOFF_CAP_MS = 5 * 60_000;

export const errorText = (body: unknown): string => {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; reason?: unknown; code?: unknown };
    return [b.error, b.code, b.reason].filter((x) => typeof x === 'string').join(' / ');
  }
  return typeof body === 'string' ? body.slice(0, 200) : '';
};

/**
 * The server's Retry-After, honoured up to the longest pause an agent takes (a wild value must not park it), and
 * spread a little past it (afterServerDelay) so a crowd told the same second does not come back in one instant.
 */
export const serverDelay = (headers: AnswerHeaders): number | undefined => {
  const ms = retryAfterMs(headers);
  return ms === null ? undefined : afterServerDelay(Math.min(ms, REFUSED_BACKOFF_CAP_MS));
};

/** The server does not know this agent id (the spec's 404 'Agent not found'), as opposed to a missing route. */
export const agentUnknown = (answer: HttpAnswer) =>
  answer.status === 404 && (answer.body as { error?: unknown } | null)?.error === 'Agent not found';

export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));
