// The console's one typed caller: `call('GET /webhooks/:id', { params: { id } })`. What it takes and what it
// answers with come from the contract's endpoint map (server/contract/endpoints), which defineRoute holds the
// server's routes to, so no call site asserts a type of its own. `stream()` is the same for the endpoints that
// answer with a streamed file.

import type { ApiEndpoints, EndpointKey, StreamedFile } from '../../../../server/contract';
import { qs } from '../forms';
import { api, apiResponse, type RequestOptions } from './client';

type PathOf<K extends string> = K extends `${string} ${infer Path}` ? Path : never;

/** The `:name` segments of a path. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsArg<K extends EndpointKey> = [ParamNames<PathOf<K>>] extends [never]
  ? unknown
  : { params: Record<ParamNames<PathOf<K>>, string> };

type BodyArg<K extends EndpointKey> = [ApiEndpoints[K]['body']] extends [undefined]
  ? unknown
  : { body: ApiEndpoints[K]['body'] };

type QueryArg<K extends EndpointKey> = [ApiEndpoints[K]['query']] extends [undefined]
  ? unknown
  : object extends ApiEndpoints[K]['query']
    ? { query?: ApiEndpoints[K]['query'] }
    : { query: ApiEndpoints[K]['query'] };

/** How a call is sent, beside what the endpoint itself takes. */
export type CallOptions = Pick<
  RequestOptions,
  'auth' | 'retryOnUnauthorized' | 'headers' | 'signal' | 'token'
>;

export type CallArgs<K extends EndpointKey> = ParamsArg<K> & BodyArg<K> & QueryArg<K> & CallOptions;

/** What an endpoint answers with. */
export type ResponseOf<K extends EndpointKey> = ApiEndpoints[K]['response'];

/** The arguments are optional exactly when the endpoint needs no path parameter, body or query. */
type Rest<K extends EndpointKey> = object extends CallArgs<K> ? [args?: CallArgs<K>] : [args: CallArgs<K>];

interface LooseArgs extends CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string | number | null | undefined>;
}

/** The endpoints whose answer is a streamed file, and those that answer with JSON. */
type StreamKey = {
  [K in EndpointKey]: ApiEndpoints[K]['response'] extends StreamedFile ? K : never;
}[EndpointKey];
type JsonKey = Exclude<EndpointKey, StreamKey>;

/** The path with its parameters filled in and the query appended, and how to send it. */
function request(endpoint: EndpointKey, args: LooseArgs = {}): [string, RequestOptions] {
  const { params, body, query, ...options } = args;
  const space = endpoint.indexOf(' ');
  const method = endpoint.slice(0, space) as NonNullable<RequestOptions['method']>;
  const path = endpoint
    .slice(space + 1)
    .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  // A write without a body of its own still sends `{}`: the server reads every write as JSON.
  const sent = body ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
  return [`${path}${qs(query ?? {})}`, { ...options, method, body: sent }];
}

/** Call one endpoint of the contract. Throws ApiError for any non-2xx answer or network failure. */
export function call<K extends JsonKey>(endpoint: K, ...[args]: Rest<K>): Promise<ResponseOf<K>> {
  return api<ResponseOf<K>>(...request(endpoint, args as LooseArgs));
}

/** Call an endpoint that streams a file: the successful response, unread, for its body and headers. */
export function stream<K extends StreamKey>(endpoint: K, ...[args]: Rest<K>): Promise<Response> {
  return apiResponse(...request(endpoint, args as LooseArgs));
}
