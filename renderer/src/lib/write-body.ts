// Apart from forms.ts so that it carries no import of the API client (unit tests run it without a DOM).

/**
 * The body of a create-or-edit write, from the wire values of the form and of the record as it was (null when
 * creating): a create sends the fields that are set (null is left to the server's default), an edit sends only
 * the fields that changed, so nothing the user did not touch is written over.
 */
export function writeBody<B extends Record<string, unknown>>(next: B, before: B | null): Partial<B> {
  const body: Partial<B> = {};
  for (const key of Object.keys(next) as Array<keyof B>) {
    const value = next[key];
    if (before === null ? value !== null : value !== before[key]) body[key] = value;
  }
  return body;
}
