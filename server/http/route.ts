import type { Request, RequestHandler, Response, Router } from 'express';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z, type ZodType } from 'zod';
import type { AgentAccess, AgentCaller } from '../modules/agents/auth';
import type { PartnerCaller } from '../modules/partner-api/authenticate';
import { readJsonBody } from './body';
import { loopTurns } from './turns';
import { badRequest } from './errors';
import type { ApiKeyAuth, AuthContext, UserAuth } from './auth-context';
import type { Permission } from './permissions';
import type { ApiEndpoints, StreamedFile } from '../contract/endpoints';

// Every route is declared once as a RouteSpec: the same zod schemas validate the request and describe it in the
// OpenAPI document at /api/v1/openapi.json, so the two can never drift apart.

/** A body size limit as routes write it: `32kb`, `1mb` (binary units, like express). */
export type BodySize = `${number}kb` | `${number}mb`;
const bytesOf = (size: BodySize): number =>
  Math.floor(Number.parseFloat(size) * (size.endsWith('mb') ? 1024 * 1024 : 1024));

/** Body limit for an identified caller (user, API key or agent) unless the route asks for less. */
const DEFAULT_BODY_LIMIT = bytesOf('1mb');
/**
 * Body limit for a caller nobody has identified (public routes; `optional` ones without a session): enough for
 * every public body (sign-in, setup, registration, enrollment), too small to make a stranger's upload costly.
 */
export const PUBLIC_BODY_LIMIT = bytesOf('64kb');

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * `public`: no credential; `user`: a signed-in console user (Bearer JWT); `optional`: a user or nobody;
 * `user_or_key`: a user or an API key (the key wins when both are sent); `key`: an API key only; `agent`: an
 * agent's bearer credential for the `:agentId` in the path (DESIGN §3); `partner_key`: a partner provisioning key
 * (`X-API-Key: psk_...`, spec 3) and nothing else.
 */
export type RouteAuth = 'public' | 'user' | 'optional' | 'user_or_key' | 'key' | 'agent' | 'partner_key';

type CallerFor<A extends RouteAuth> = A extends 'user'
  ? UserAuth
  : A extends 'optional'
    ? UserAuth | null
    : A extends 'user_or_key'
      ? AuthContext
      : A extends 'key'
        ? ApiKeyAuth
        : A extends 'agent'
          ? AgentCaller
          : A extends 'partner_key'
            ? PartnerCaller
            : null;

export interface HandlerContext<B, Q, P, A> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  auth: A;
}

/** The console's endpoint (server/contract/endpoints) a route declares, if the console calls it. */
type EndpointOf<
  M extends HttpMethod,
  Path extends string,
> = `${Uppercase<M>} ${Path}` extends keyof ApiEndpoints
  ? ApiEndpoints[`${Uppercase<M>} ${Path}`]
  : undefined;

/**
 * What a route's handler may answer with: its endpoint's response (nothing where it streams a file, which it writes
 * itself), or anything for a route the console never calls.
 */
type AnswerOf<M extends HttpMethod, Path extends string> =
  EndpointOf<M, Path> extends { response: infer R }
    ? [R] extends [StreamedFile]
      ? void | Promise<void>
      : R | Promise<R>
    : unknown;

/**
 * A route the console calls must accept what the console sends: every body (and query) of its endpoint must pass
 * the route's schema. Where one would not, the spec is asked for a property it cannot have, naming the mismatch.
 */
type AcceptsEndpoint<M extends HttpMethod, Path extends string, BodySchema, QuerySchema> =
  EndpointOf<M, Path> extends { body: infer Body; query: infer Query }
    ? ([Body] extends [undefined]
        ? unknown
        : [Body] extends [InputOf<BodySchema>]
          ? unknown
          : { bodyNotAccepted: Body }) &
        ([Query] extends [undefined]
          ? unknown
          : [OnTheWire<Query>] extends [InputOf<QuerySchema>]
            ? unknown
            : { queryNotAccepted: Query })
    : unknown;

/** A query as it arrives: the console writes each number or flag into the URL as text. */
type OnTheWire<Query> = { [K in keyof Query]: Query[K] extends string | undefined ? Query[K] : string };

/** What a schema accepts (its input); `undefined` where the route has none. */
type InputOf<Schema> = Schema extends ZodType ? z.input<Schema> : undefined;

export interface RouteSpec<
  B = unknown,
  Q = unknown,
  P = unknown,
  Auth extends RouteAuth = RouteAuth,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  BodySchema = unknown,
  QuerySchema = unknown,
> {
  method: M;
  /** Express-style path relative to /api/v1, e.g. `/auth/login` or `/users/:id`. */
  path: Path;
  summary: string;
  tag: string;
  auth: Auth;
  /** Require an MFA-verified user session (`mfa: true`) when ENABLE_2FA is on; API keys pass on their scopes. */
  mfa?: boolean;
  /** The named permission(s) the caller must hold, all of them (role chain for users, scopes for API keys). */
  permission?: Permission | readonly Permission[];
  /** With `auth: 'agent'`: what the agent may do (`full` unless said; see AgentAccess). */
  agentAccess?: AgentAccess;
  body?: ZodType<B> & BodySchema;
  /** JSON body size limit; 1 MB unless a route needs less (spec 2: 32 KB for elevation ingest). */
  bodyLimit?: BodySize;
  query?: ZodType<Q> & QuerySchema;
  params?: ZodType<P>;
  /** Success status; defaults to 200. */
  status?: number;
  /** Extra documented responses, status to description. */
  responses?: Record<number, string>;
  handler: (ctx: HandlerContext<B, Q, P, CallerFor<Auth>>) => AnswerOf<M, Path>;
}

export function defineRoute<
  B = undefined,
  Q = undefined,
  P = undefined,
  Auth extends RouteAuth = RouteAuth,
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  BodySchema = undefined,
  QuerySchema = undefined,
>(
  spec: RouteSpec<B, Q, P, Auth, M, Path, BodySchema, QuerySchema> &
    AcceptsEndpoint<M, Path, BodySchema, QuerySchema>,
  // NoInfer: the caller's contextual type (AnyRoute[]) must not widen the inferred `auth` literal.
): NoInfer<RouteSpec<B, Q, P, Auth, M, Path, BodySchema, QuerySchema>> {
  return spec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogeneous list of routes
export type AnyRoute = RouteSpec<any, any, any, any, any, any, any, any>;

function validate<T>(schema: ZodType<T> | undefined, input: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(where === 'body' ? (input ?? {}) : input);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const first = issues[0];
    const message = first
      ? first.path
        ? `${first.path}: ${first.message}`
        : first.message
      : 'Invalid request';
    throw badRequest(message, 'VALIDATION_ERROR', { location: where, issues });
  }
  return result.data;
}

export interface RouteMiddleware {
  authenticate: (mode: Exclude<RouteAuth, 'public' | 'agent' | 'partner_key'>) => RequestHandler;
  /** Sets `req.partnerCaller` from the `psk_` key in X-API-Key, or refuses (401/403). */
  authenticatePartnerKey: RequestHandler;
  /** Sets `req.agent` from the bearer credential of the path's agent, or refuses (401/403/404). */
  authenticateAgent: (access: AgentAccess) => RequestHandler;
  requireMfa: RequestHandler;
  requirePermission: (permission: Permission) => RequestHandler;
}

/** How many body bytes this caller may send: the route's limit once identified, the small public one before. */
function bodyLimitFor(route: AnyRoute, req: Request): number {
  const identified = req.auth !== undefined || req.agent !== undefined || req.partnerCaller !== undefined;
  const limit = route.bodyLimit ? bytesOf(route.bodyLimit) : DEFAULT_BODY_LIMIT;
  return identified ? limit : Math.min(limit, PUBLIC_BODY_LIMIT);
}

/**
 * The chain of every route: who is calling and what they may do (headers only), then the body, then validation.
 * The body is read last so a caller who will be refused never gets a large body parsed.
 */
export function mountRoutes(router: Router, routes: AnyRoute[], middleware: RouteMiddleware): void {
  for (const route of routes) {
    const chain: RequestHandler[] = [];
    if (route.auth === 'agent') chain.push(middleware.authenticateAgent(route.agentAccess ?? 'full'));
    else if (route.auth === 'partner_key') chain.push(middleware.authenticatePartnerKey);
    else if (route.auth !== 'public') chain.push(middleware.authenticate(route.auth));
    for (const permission of permissionsOf(route)) chain.push(middleware.requirePermission(permission));
    if (route.mfa) chain.push(middleware.requireMfa);
    chain.push(async (req, res) => {
      const rawBody = await readJsonBody(req, bodyLimitFor(route, req));
      await loopTurns.wait();
      const body = validate(route.body, rawBody, 'body');
      const query = validate(route.query, req.query, 'query');
      const params = validate(route.params, req.params, 'params');
      const auth =
        (route.auth === 'agent' ? req.agent : route.auth === 'partner_key' ? req.partnerCaller : req.auth) ??
        null;
      const result = await route.handler({ req, res, body, query, params, auth });
      if (res.headersSent) return;
      if (result === undefined) res.status(route.status ?? 204).end();
      else res.status(route.status ?? 200).json(result);
    });
    router[route.method as HttpMethod](route.path, ...chain);
  }
}

const permissionsOf = (route: AnyRoute): readonly Permission[] =>
  route.permission === undefined
    ? []
    : typeof route.permission === 'string'
      ? [route.permission]
      : route.permission;

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function registerOpenApi(registry: OpenAPIRegistry, routes: AnyRoute[]): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  registry.registerComponent('securitySchemes', 'agentToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The authToken an agent received at enrollment',
  });
  const security: Record<RouteAuth, Array<Record<string, string[]>>> = {
    public: [],
    optional: [{ bearer: [] }, {}],
    user: [{ bearer: [] }],
    user_or_key: [{ bearer: [] }, { apiKey: [] }],
    key: [{ apiKey: [] }],
    agent: [{ agentToken: [] }],
    partner_key: [{ apiKey: [] }],
  };
  const errorBody = z.object({ error: z.string(), code: z.string().optional() });
  for (const route of routes) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: ZodType }> }> =
      {
        [route.status ?? 200]: { description: 'Success' },
      };
    if (route.body || route.query || route.params)
      responses[400] = {
        description: 'Invalid request',
        content: { 'application/json': { schema: errorBody } },
      };
    if (route.body) {
      responses[413] = {
        description: 'Request body too large',
        content: { 'application/json': { schema: errorBody } },
      };
      responses[415] = {
        description: 'Content-Type is not application/json (UTF-8), or the Content-Encoding is not supported',
        content: { 'application/json': { schema: errorBody } },
      };
    }
    if (route.auth !== 'public' && route.auth !== 'optional')
      responses[401] = {
        description: 'Not signed in',
        content: { 'application/json': { schema: errorBody } },
      };
    if (route.mfa || route.permission)
      responses[403] = {
        description: [
          route.permission && `Needs ${permissionsOf(route).join(' and ')}`,
          route.mfa && 'MFA required',
        ]
          .filter(Boolean)
          .join('; '),
        content: { 'application/json': { schema: errorBody } },
      };
    for (const [status, description] of Object.entries(route.responses ?? {})) {
      responses[status] = { description, content: { 'application/json': { schema: errorBody } } };
    }
    registry.registerPath({
      method: route.method,
      path: `/api/v1${toOpenApiPath(route.path)}`,
      summary: route.summary,
      tags: [route.tag],
      security: security[route.auth as RouteAuth],
      request: {
        ...(route.body ? { body: { content: { 'application/json': { schema: route.body } } } } : {}),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the library wants object schemas
        ...(route.query ? { query: route.query as any } : {}),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        ...(route.params ? { params: route.params as any } : {}),
      },
      responses,
    });
  }
}
