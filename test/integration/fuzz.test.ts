// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyText,
  describeRequest,
  encodedBody,
  FORGED_CREDENTIALS,
  junkPathParam,
  junkQuery,
  junkValue,
  operationsOf,
  plausibleQuery,
  send,
  UNDECODABLE_ENCODINGS,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
} from '../support/api-fuzz';
import {
  HOST_PREFIX,
  POSTURE_PRODUCT,
  seedScopeWorld,
  TAG,
  type ResourceKind,
  type ScopeWorld,
  type WorldCaller,
} from '../support/scope-world';
import { csvObjects } from '../support/export-formats';
import { startServer, type TestServer } from '../support/server';

// The whole API against hostile input, as every kind of caller. The operations come from the server's own
// OpenAPI document, so a new route is fuzzed the day it is added. For each operation and caller, fast-check draws
// requests with junk bodies, queries, path parameters and headers (test/support/api-fuzz.ts), and every answer
// must hold two properties:
//   - no 5xx, and an answer at all (DESIGN §6: bad input is a 4xx; a 5xx is always a bug);
//   - nothing outside the caller's scope: no answer, whatever its status, contains an id, hostname or log text the
//     caller must not see (test/support/scope-world.ts computes them: other tenants' organizations and their
//     sites, groups, filters and rules; devices outside a restricted user's sites or device group, their
//     hostnames, log entries and elevation requests). An id the request itself carried may be echoed back, and
//     one an earlier request carried may come back as the filters an audit entry records for it.
// The server's Object.prototype must stay clean too (the server runs in this process).
//
// The fixture must survive the run, so:
//   - only reads (GET, and the preview POSTs) name real resources in their path; writes get ids that name
//     nothing, so no DELETE, rotate, decommission or self-uninstall can reach a fixture; a write whose body
//     happens to be valid only adds things;
//   - operations whose effect needs no input (sign out, demo seeding and simulator, release-feed sync) are called
//     without valid credentials only;
//   - users are signed in before the fuzz; each request comes from its own forwarded address (the server trusts
//     the loopback proxy here), so the limiter for secret guesses throttles no later case, and 429 is an answer
//     like any other 4xx.
// Deterministic cases run before the random ones: on every read route, as every caller, the plain request (which
// shows list leaks) with the caller's forbidden resource of the kind the path names, then with the query filled
// in (the fixture's hostname prefix, tag and posture product, required dates) and with forbidden ids in it; on
// every route, gzip, deflate and br claimed over a plain body, by a caller that gets past authentication.
//
// Budget: FUZZ_RUNS random cases per operation and caller (default 1 in `npm test`, about 5,000 requests in all;
// 20 in `npm run fuzz`). FUZZ_SEED replays a run (the seed is printed on failure); FUZZ_OPS (a regular expression
// over "METHOD /path") narrows it.

// `npm run fuzz` is the long run and `npm test` the short one; the script is told apart by its npm lifecycle
// name, because an environment prefix in package.json would not run on Windows.
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.npm_lifecycle_event === 'fuzz' ? 20 : 1));
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ONLY = process.env.FUZZ_OPS ? new RegExp(process.env.FUZZ_OPS) : null;

/** Operations whose effect needs no valid input: fuzzed only with no or forged credentials. */
const EFFECT_WITHOUT_INPUT = new Set([
  'post /api/v1/auth/logout',
  'post /api/v1/demo/seed',
  'post /api/v1/demo/simulator/start',
  'post /api/v1/demo/simulator/stop',
  'post /api/v1/demo/simulator/elevation-requests',
  // Reaches out to the release feed on the internet.
  'post /api/v1/agent-versions/sync-github',
]);

/** Writes that change nothing (previews): fuzzed like reads, with real ids in their paths. */
const READ_ONLY_WRITES = new Set([
  'post /api/v1/filters/preview',
  'post /api/v1/filters/{id}/preview',
  'post /api/v1/pam/rules/preview',
]);

/** Plausible values for path parameters that are not ids. */
const NAMED_PARAMS: Record<string, string[]> = {
  os: ['windows', 'linux', 'macos', 'darwin'],
  arch: ['x64', 'arm64', 'amd64'],
  name: ['Security', 'System', 'Application'],
  version: ['1.0.0', 'latest'],
};

let server: TestServer;
let world: ScopeWorld;
let ops: Operation[];
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort().join();

beforeAll(async () => {
  server = await startServer({
    env: { LOG_LEVEL: 'fatal', TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32,::1/128' },
  });
  world = await seedScopeWorld(server);
  const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  ops = operationsOf(doc).filter((op) => !ONLY || ONLY.test(`${op.method.toUpperCase()} ${op.path}`));
}, 120_000);

afterAll(async () => {
  await server?.dispose();
});

const key = (op: Operation) => `${op.method} ${op.path}`;
const readsOnly = (op: Operation) => op.method === 'get' || READ_ONLY_WRITES.has(key(op));
const caller = (name: string) => world.callers.find((c) => c.name === name)!;

/** The callers an operation is fuzzed as. */
function callersOf(op: Operation): WorldCaller[] {
  if (EFFECT_WITHOUT_INPUT.has(key(op))) return [caller('anonymous')];
  return world.callers;
}

/** The caller that gets past authentication on this route (body parsing must hold whoever asks). */
function encodingCaller(op: Operation): WorldCaller {
  if (op.accepts.anonymous || EFFECT_WITHOUT_INPUT.has(key(op))) return caller('anonymous');
  return op.accepts.bearer ? caller('system admin') : caller('API key A1 *');
}

const fill = (op: Operation, values: string[]) => {
  let i = 0;
  return op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? 'x');
};
const isIdParam = (name: string) => /id$/i.test(name);
const ADDRESS = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `198.18.${a}.${b}`);
const JUNK_ADDRESSES = [
  'garbage',
  '',
  '1.1.1.1, 2.2.2.2, 127.0.0.1',
  '::ffff:10.0.0.1',
  'unknown',
  'x'.repeat(4000),
];

function requestArb(op: Operation, who: WorldCaller): fc.Arbitrary<FuzzRequest> {
  const ids = world.ids;
  const read = readsOnly(op);
  const param = (name: string) =>
    read && isIdParam(name)
      ? fc.oneof(fc.constantFrom(...ids), junkPathParam())
      : NAMED_PARAMS[name]
        ? fc.oneof(fc.constantFrom(...NAMED_PARAMS[name]!), junkPathParam())
        : junkPathParam();
  const path = fc.tuple(...op.pathParams.map(param)).map((values) => fill(op, values));
  const query = fc.oneof(fc.constant(''), plausibleQuery(op, ids), junkQuery(op, ids));
  // Writes always carry a body (junk or not); reads sometimes do, since the body parser runs for them too.
  const body = bodyText(op.body, ids).chain((b) =>
    encodedBody(b.text).map((e) => ({ ...e, text: b.text, note: `${b.note}; ${e.note}` })),
  );
  const maybeBody = op.method === 'get' ? fc.option(body, { freq: 4 }) : body.map((b) => b);
  const credentials = fc.oneof(
    { weight: 9, arbitrary: fc.constant<Record<string, string> | null>(null) },
    { weight: 1, arbitrary: fc.constantFrom(...FORGED_CREDENTIALS) },
  );
  const address = fc.oneof(
    { weight: 9, arbitrary: ADDRESS },
    { weight: 1, arbitrary: fc.constantFrom(...JUNK_ADDRESSES) },
  );
  const extraHeader = fc.option(
    fc
      .tuple(
        fc.constantFrom('accept', 'accept-charset', 'x-real-ip', 'x-service-csrf', 'cookie'),
        junkValue([]),
      )
      .map(
        ([name, value]) =>
          [
            name,
            String(typeof value === 'string' ? value : JSON.stringify(value))
              .replace(/[^\x20-\x7e]/g, '?')
              .slice(0, 2000),
          ] as const,
      ),
    { freq: 4 },
  );
  return fc
    .record({ path, query, body: maybeBody, credentials, address, extraHeader })
    .map(({ path: p, query: q, body: b, credentials: forged, address: a, extraHeader: extra }) => ({
      method: op.method,
      caller: who.name,
      forged: forged !== null,
      path: p + q,
      headers: {
        ...(forged ?? who.headers),
        'x-forwarded-for': a,
        ...(b ? b.headers : {}),
        ...(extra ? { [extra[0]]: extra[1] } : {}),
      },
      body: b ? b.body : null,
      echo: `${p}${q} ${b ? b.text : ''}`,
      note: [b ? b.note : 'no body', q ? 'query' : 'no query', forged ? 'forged credentials' : '']
        .filter(Boolean)
        .join('; '),
    }));
}

let addressCounter = 0;
/** A plain request for an example case: the caller's credentials, an address of its own, an empty JSON body. */
function plainRequest(
  op: Operation,
  who: WorldCaller,
  params: string[],
  extra: Partial<FuzzRequest> = {},
): FuzzRequest {
  addressCounter++;
  const body = op.method === 'get' ? null : Buffer.from('{}');
  return {
    method: op.method,
    caller: who.name,
    forged: false,
    path: fill(op, params),
    headers: {
      ...who.headers,
      'x-forwarded-for': `198.19.${(addressCounter >> 8) & 255}.${addressCounter & 255}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body,
    echo: fill(op, params),
    note: 'plain',
    ...extra,
  };
}

/** The kind of resource a path parameter names: `deviceId`, or an `id` after `/devices/`, `/sites/` and so on. */
function kindOf(op: Operation, param: string): ResourceKind | null {
  if (/^deviceId$/i.test(param)) return 'device';
  if (!isIdParam(param)) return null;
  const segment = op.path.split(`{${param}}`)[0]!.split('/').filter(Boolean).at(-1);
  const kinds: Record<string, ResourceKind> = {
    organizations: 'organization',
    sites: 'site',
    groups: 'group',
    filters: 'filter',
    rules: 'rule',
    devices: 'device',
    'elevation-requests': 'elevation',
  };
  return kinds[segment ?? ''] ?? null;
}

/** A resource of `kind` the caller must not see (in its own organization first), else one it may see. */
function probeId(who: WorldCaller, kind: ResourceKind): { id: string; forbidden: boolean } | null {
  const ofKind = world.resources.filter((r) => r.kind === kind);
  const hidden = ofKind.find((r) => who.forbidden.has(r.id));
  if (hidden) return { id: hidden.id, forbidden: true };
  return ofKind[0] ? { id: ofKind[0].id, forbidden: false } : null;
}

/** Query values that make read routes answer with data: required parameters, and the fixture's names. */
function queryProbes(op: Operation, who: WorldCaller, mode: 'visible' | 'forbidden'): string | null {
  const day = 86_400_000;
  const fixed: Record<string, string> = {
    q: HOST_PREFIX,
    search: HOST_PREFIX,
    tag: TAG,
    product: POSTURE_PRODUCT,
    from: new Date(Date.now() - day).toISOString(),
    to: new Date(Date.now() + day).toISOString(),
  };
  const idKinds: Record<string, ResourceKind> = {
    orgId: 'organization',
    organizationId: 'organization',
    siteId: 'site',
    groupId: 'group',
    deviceId: 'device',
    filterId: 'filter',
    elevationRequestId: 'elevation',
  };
  const pairs: string[] = [];
  let forbiddenIds = 0;
  for (const { name } of op.query) {
    const kind = idKinds[name];
    if (kind) {
      const probe = probeId(who, kind);
      // Visible mode names the caller's own organization (system scope needs one on some routes) and no other id.
      if (mode === 'visible' && kind === 'organization' && probe && !probe.forbidden)
        pairs.push(`${name}=${probe.id}`);
      if (mode === 'forbidden' && probe?.forbidden) {
        pairs.push(`${name}=${probe.id}`);
        forbiddenIds++;
      }
    } else if (fixed[name] !== undefined) pairs.push(`${name}=${encodeURIComponent(fixed[name])}`);
  }
  if (mode === 'forbidden' && forbiddenIds === 0) return null;
  return pairs.length ? `?${pairs.join('&')}` : null;
}

/** Bodies for the read-only POST routes (previews), so they answer with data. */
function previewBody(op: Operation, who: WorldCaller): unknown {
  const org = probeId(who, 'organization');
  if (op.path.endsWith('/pam/rules/preview'))
    return { orgId: org?.id, name: 'probe', verdict: 'auto_approve', matchPathGlob: 'C:\\Tools\\*' };
  if (op.path.endsWith('/filters/preview'))
    return {
      conditions: {
        operator: 'AND',
        conditions: [{ field: 'hostname', operator: 'startsWith', value: HOST_PREFIX }],
      },
      limit: 100,
    };
  return {};
}

/** The deterministic cases of an operation and caller. */
function examplesOf(op: Operation, who: WorldCaller): FuzzRequest[] {
  const nothing = '6f9619ff-8b86-4d11-b42d-00c04fc964ff'; // names no resource
  const fixed = (name: string) => NAMED_PARAMS[name]?.[0] ?? 'x';
  const examples: FuzzRequest[] = [];
  if (readsOnly(op)) {
    // The caller's forbidden resource of the kind the path names (or a visible one: the route then answers
    // with data, which must still hold nothing forbidden); and the route with its query filled in.
    const params = op.pathParams.map((name) => {
      const kind = kindOf(op, name);
      return kind ? (probeId(who, kind)?.id ?? nothing) : isIdParam(name) ? nothing : fixed(name);
    });
    const body = op.method === 'get' ? undefined : previewBody(op, who);
    const withBody = (req: FuzzRequest): FuzzRequest =>
      body === undefined
        ? req
        : { ...req, body: Buffer.from(JSON.stringify(body)), echo: `${req.echo} ${JSON.stringify(body)}` };
    examples.push(withBody(plainRequest(op, who, params)));
    for (const mode of ['visible', 'forbidden'] as const) {
      const query = queryProbes(op, who, mode);
      if (!query) continue;
      const req = plainRequest(op, who, params);
      examples.push(
        withBody({ ...req, path: req.path + query, echo: req.echo + query, note: `plain, ${mode} query` }),
      );
    }
  }
  if (who === encodingCaller(op)) {
    for (const encoding of UNDECODABLE_ENCODINGS) {
      const base = plainRequest(
        op,
        who,
        op.pathParams.map((n) => (isIdParam(n) ? nothing : fixed(n))),
      );
      examples.push({
        ...base,
        headers: { ...base.headers, 'content-type': 'application/json', 'content-encoding': encoding },
        body: Buffer.from('{"not":"compressed"}'),
        echo: `${base.echo} {"not":"compressed"}`,
        note: `content-encoding ${encoding} over a plain JSON body`,
      });
    }
  }
  return examples;
}

const excerpt = (text: string, at: number) => JSON.stringify(text.slice(Math.max(0, at - 120), at + 120));

/** Every id an earlier request carried: the audit log records an export's filters, so one may come back later. */
const carried = new Set<string>();
/**
 * Every id an earlier write stored: a valid random body may set, say, a user's own name to a foreign id, and from
 * then on that string is data a caller wrote, shown to whoever may read it, not something the server disclosed.
 */
const written = new Set<string>();

/**
 * The answer with the filters recorded in audit entries taken out (`details.filters` of an entry, in JSON or in
 * the details column of a CSV export): what a caller typed into an export's filters is its own input, echoed by a
 * later read of the audit trail, not a leak. Only that field is discounted, so a foreign id anywhere else in the
 * same entry still fails the run.
 */
function withoutRecordedFilters(text: string): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[k] = strip(inner);
    const details = out.details;
    if (typeof out.action === 'string' && details && typeof details === 'object' && 'filters' in details)
      out.details = { ...details, filters: '(recorded filters)' };
    return out;
  };
  const parse = (raw: string): unknown => {
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  };
  const body = parse(text);
  if (body !== undefined) return JSON.stringify(strip(body));
  let rows: Array<Record<string, string>>;
  try {
    rows = csvObjects(text);
  } catch {
    return text;
  }
  return JSON.stringify(strip(rows.map((row) => ({ ...row, details: parse(row.details ?? '') }))));
}

/** The oracle: an answer, below 500, revealing nothing outside the caller's scope, prototype untouched. */
async function probe(
  op: Operation,
  req: FuzzRequest,
  statuses: Map<string, Map<number, number>>,
): Promise<void> {
  const res = await send(server.url, req).catch((err: Error) => {
    throw new Error(`no answer: ${err.message}`);
  });
  const counts = statuses.get(req.caller) ?? new Map<number, number>();
  counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  statuses.set(req.caller, counts);
  if (res.status >= 500) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  const who = caller(req.forged ? 'anonymous' : req.caller);
  for (const id of who.forbidden) {
    const at = res.text.indexOf(id);
    if (at < 0 || req.echo.includes(id) || written.has(id)) continue;
    if (carried.has(id) && !withoutRecordedFilters(res.text).includes(id)) continue;
    throw new Error(`leaks ${world.labels.get(id) ?? id} (HTTP ${res.status}): …${excerpt(res.text, at)}…`);
  }
  const stored = !readsOnly(op) && res.status >= 200 && res.status < 300;
  for (const id of world.labels.keys()) {
    if (!req.echo.includes(id)) continue;
    carried.add(id);
    if (stored) written.add(id);
  }
  if (Object.getOwnPropertyNames(Object.prototype).sort().join() !== prototypeKeys)
    throw new Error('Object.prototype was polluted');
}

describe('API fuzz', () => {
  it(
    'answers every operation, as every caller, without a 5xx or anything outside the caller’s scope',
    async () => {
      // The whole API (about 150 operations), unless FUZZ_OPS narrowed it.
      expect(ops.length).toBeGreaterThan(ONLY ? 0 : 100);
      const failures: string[] = [];
      const statuses = new Map<string, Map<number, number>>();
      let pair = 0;
      for (const op of ops) {
        for (const who of callersOf(op)) {
          const seed = SEED + pair++;
          const examples = examplesOf(op, who).map((r): [FuzzRequest] => [r]);
          // fast-check counts examples within numRuns: the random cases come on top.
          const result = await fc.check(
            fc.asyncProperty(requestArb(op, who), (req) => probe(op, req, statuses)),
            { numRuns: examples.length + RUNS, seed, examples, endOnFailure: true },
          );
          if (!result.failed) continue;
          const [req] = result.counterexample ?? [];
          const error =
            result.errorInstance instanceof Error
              ? result.errorInstance.message
              : String(result.errorInstance);
          failures.push(
            `${op.method.toUpperCase()} ${op.path} as ${who.name}: ${error}\n    request: ${req ? describeRequest(req) : '?'}`,
          );
        }
      }

      // The fixture came through: every caller's credentials still work, and most callers got real answers.
      for (const who of world.callers) {
        if (who.name === 'anonymous') continue;
        const path = 'x-api-key' in who.headers ? '/api/v1/api-keys/current' : '/api/v1/auth/me';
        const res = await send(server.url, {
          ...plainRequest(ops[0]!, who, []),
          method: 'get',
          path,
          body: null,
        });
        expect(res.status, `${who.name} can still sign requests`).toBe(200);
        if (ONLY) continue;
        expect(
          [...(statuses.get(who.name)?.keys() ?? [])].some((s) => s >= 200 && s < 300),
          `${who.name} got 2xx answers`,
        ).toBe(true);
      }

      if (failures.length > 0) {
        const shown = failures.slice(0, 40).join('\n\n');
        throw new Error(
          `${failures.length} failing case(s); replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n\n${shown}` +
            (failures.length > 40 ? `\n\n… and ${failures.length - 40} more` : ''),
        );
      }
    },
    600_000 + RUNS * 60_000,
  );
});
