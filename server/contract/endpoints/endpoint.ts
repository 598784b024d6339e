/**
 * One endpoint of the console's API: the JSON it answers with (`void` for 204), the JSON body it takes and its
 * query parameters (`undefined`: none). The map of them all is ApiEndpoints (index.ts).
 */
export interface Endpoint<Response, Body = undefined, Query = undefined> {
  response: Response;
  body: Body;
  query: Query;
}
