// The reason a decision records (approve, deny, revoke; one request or many). The server keeps at most
// MAX_REASON characters of it, so every form that asks for one checks the limit, and says so, the same way.

export const MAX_REASON = 2000;

/** What is wrong with a typed reason, or null; `missing` is what an empty one says where a reason is required. */
export function reasonProblem(reason: string, missing?: string): string | null {
  const text = reason.trim();
  if (!text) return missing ?? null;
  return text.length > MAX_REASON ? `Keep the reason under ${MAX_REASON} characters.` : null;
}
