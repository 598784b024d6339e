// What the forms say about a name or a free text against its limits, in the same words everywhere.

/** "At most N characters." when `text` is longer than `max`, else null. */
export function lengthProblem(text: string, max: number): string | null {
  return text.length > max ? `At most ${max} characters.` : null;
}

/**
 * What is wrong with a required name (trimmed): nothing typed once the form was tried (`empty` says what to do),
 * or longer than `max`; null when it may be sent.
 */
export function nameProblem(
  name: string,
  { tried, max, empty }: { tried: boolean; max: number; empty: string },
): string | null {
  const trimmed = name.trim();
  if (!trimmed) return tried ? empty : null;
  return lengthProblem(trimmed, max);
}
