import { DECISION_REASON_MAX } from '../../../../server/contract';

// The reason a decision records (approve, deny, revoke; one request or many). The server keeps at most
// DECISION_REASON_MAX characters of it, so every form that asks for one checks the limit, and says so, the same way.

/** What is wrong with a typed reason, or null; `missing` is what an empty one says where a reason is required. */
export function reasonProblem(reason: string, missing?: string): string | null {
  const text = reason.trim();
  if (!text) return missing ?? null;
  return text.length > DECISION_REASON_MAX
    ? `Keep the reason under ${DECISION_REASON_MAX} characters.`
    : null;
}
