/**
 * One endpoint of the console's API: the JSON it answers with (`void` for 204), the JSON body it takes and its
 * query parameters (`undefined`: none). The map of them all is ApiEndpoints (index.ts).
 */
export interface Endpoint<Response, Body = undefined, Query = undefined> {
  response: Response;
  body: Body;
  query: Query;
}

/**
 * The answer of an endpoint that streams a file (CSV, JSONL) instead of one JSON value: its handler writes the
 * response itself, and the console reads it with `stream()` rather than `call()`.
 */
export interface StreamedFile {
  readonly streamed: true;
}
