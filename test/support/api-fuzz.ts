// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { request as httpRequest, Agent } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

// Hostile requests built from the server's own OpenAPI document: for any operation, junk bodies (wrong types,
// huge strings, deep nesting, unicode, prototype-pollution keys, arrays for objects, nulls, malformed JSON), junk
// queries (repeated keys, bracket keys, huge and negative numbers, broken percent-encoding), junk path parameters
// and hostile headers (Content-Encoding over undecodable bodies, decompression bombs, wrong Content-Type, odd
// charsets, forged or malformed credentials). Requests go out through node:http so paths and headers reach the
// server byte for byte (fetch would normalize `..` and refuse some header values).

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The subset of JSON Schema that zod-to-openapi emits for our routes. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

export interface Operation {
  method: HttpMethod;
  /** OpenAPI path, e.g. `/api/v1/devices/{id}`. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | null;
  /** Which credentials the route takes: none (public or optional), a console session, an API key. */
  accepts: { anonymous: boolean; bearer: boolean; apiKey: boolean };
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: Array<Record<string, string[]>>;
        parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const security = op.security ?? [];
      ops.push({
        method: method as HttpMethod,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: op.requestBody?.content['application/json']?.schema ?? null,
        accepts: {
          anonymous: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
          bearer: security.some((s) => 'bearer' in s),
          apiKey: security.some((s) => 'apiKey' in s),
        },
      });
    }
  }
  return ops;
}

// ---- sending ------------------------------------------------------------------------------------------------

export interface FuzzRequest {
  method: string;
  /** The caller the request was built for (credentials may have been swapped for forged ones). */
  caller: string;
  /** True when the credentials are forged or malformed: the answer must not reveal anything. */
  forged: boolean;
  /** What the request carries in clear (path, query, uncompressed body): ids in it may be echoed back. */
  echo: string;
  /** Raw path and query, sent as is. */
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  /** What kind of junk this is, for failure reports. */
  note: string;
}

export interface FuzzResponse {
  status: number;
  text: string;
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends a request byte for byte; rejects when no answer comes within `timeoutMs` (a hang is a finding too). */
export function send(baseUrl: string, req: FuzzRequest, timeoutMs = 15_000): Promise<FuzzResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: req.method.toUpperCase(),
        path: req.path,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        agent: keepAlive,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(req.body ?? undefined);
  });
}

/** One line describing a request, bodies cut short. */
export function describeRequest(req: FuzzRequest): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const headers = Object.entries(req.headers)
    .filter(([k]) => !['authorization', 'x-api-key'].includes(k))
    .map(([k, v]) => `${k}: ${cut(v, 80)}`)
    .join('; ');
  const body = req.body ? cut(req.body.toString('latin1'), 300) : '(none)';
  return `${req.method.toUpperCase()} ${cut(req.path, 300)} [${req.note}] headers {${headers}} body ${body}`;
}

// ---- junk ---------------------------------------------------------------------------------------------------

const HUGE = 'A'.repeat(120_000); // past every field limit and the 64 KB allowed before authentication
const SPECIAL_STRINGS = [
  '',
  ' ',
  '%',
  '%00',
  '\u0000',
  '\ud800', // a lone surrogate: JSON.stringify writes it as an escape
  '\ufeff{}',
  '𝕏😀👩‍👩‍👧‍👦',
  'مرحبا\u202eevil',
  'null',
  'undefined',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '"; DROP TABLE devices; --',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '(a+)+$',
  '.*.*.*.*.*!',
  'a'.repeat(5000),
  '1e309',
  '-0',
  '0x10',
];
const SPECIAL_NUMBERS = [0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 4294967296, 1e-300];

/** Any JSON value, leaning on the ones that break parsers and validators. */
export function junkValue(ids: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), weight: 3 },
    {
      arbitrary: fc.constantFrom<unknown>(...SPECIAL_STRINGS, ...SPECIAL_NUMBERS, null, true, false, [], {}),
      weight: 4,
    },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
    ...(ids.length ? [{ arbitrary: fc.constantFrom(...ids), weight: 1 }] : []),
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.constant(HUGE), weight: 1 },
  );
}

const FILTER_FIELDS = [
  'hostname',
  'displayName',
  'lastUser',
  'status',
  'tags',
  'osType',
  'deviceRole',
  'isHeadless',
  'lastSeenAt',
  'enrolledAt',
  'hardware.cpuCores',
  'metrics.cpuPercent',
  'software.installed',
  'software.notInstalled',
  'orgId',
  'siteId',
  'groupId',
  'daysSinceLastSeen',
  'custom.assetTag',
  'patches.pending',
  'unknownField',
  '__proto__',
  'constructor',
];
const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'matches',
  'in',
  'notIn',
  'isNull',
  'isNotNull',
  'before',
  'after',
  'between',
  'withinLast',
  'notWithinLast',
  'hasAny',
  'hasAll',
  'isEmpty',
  'isNotEmpty',
  'greaterThan',
  'lessThanOrEquals',
  'bogus',
];

/** A saved-filter condition group (spec 2) with real fields and operators and junk values, a few levels deep. */
function conditionGroup(ids: readonly string[]): fc.Arbitrary<unknown> {
  const value = fc.oneof(
    junkValue(ids),
    fc.constantFrom<unknown>(
      { amount: 3, unit: 'days' },
      { amount: -1, unit: 'eons' },
      { from: 1, to: 5 },
      { from: 'a' },
    ),
    fc.array(fc.oneof(fc.constantFrom(...ids), fc.string()), { maxLength: 3 }),
  );
  const tree = fc.letrec((tie) => ({
    group: fc.record({
      operator: fc.constantFrom('AND', 'OR', 'and', 'XOR'),
      conditions: fc.array(fc.oneof({ depthSize: 'small', maxDepth: 4 }, tie('condition'), tie('group')), {
        maxLength: 3,
      }),
    }),
    condition: fc.record(
      { field: fc.constantFrom(...FILTER_FIELDS), operator: fc.constantFrom(...FILTER_OPERATORS), value },
      { requiredKeys: ['field', 'operator'] },
    ),
  }));
  return tree.group;
}

/** Properties and parameters whose schema says little but whose shape the server knows well. */
const byName = (name: string | undefined, ids: readonly string[]): fc.Arbitrary<unknown> | null =>
  name === 'conditions' ? conditionGroup(ids) : null;

/** A plausible value for a schema: enough to get past the validator now and then and reach the handler. */
function validish(
  schema: JsonSchema,
  ids: readonly string[],
  depth = 0,
  name?: string,
): fc.Arbitrary<unknown> {
  const known = byName(name, ids);
  if (known) return known;
  if (depth > 4) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validish(s, ids, depth + 1)));
  if (schema.allOf?.[0]) return validish(schema.allOf[0], ids, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((t) => t !== 'null') ?? (types.includes('null') ? 'null' : undefined);
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids), fc.uuid());
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (schema.format === 'uri') return fc.constantFrom('https://example.test/a', 'http://127.0.0.1:1/x');
      const min = schema.minLength ?? 0;
      return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(schema.maxLength ?? 24, 48)) });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validish(schema.items ?? {}, ids, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: 3,
      });
    case 'object': {
      const props = schema.properties ?? {};
      if (Object.keys(props).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const model = Object.fromEntries(
        Object.entries(props).map(([k, s]) => [k, validish(s, ids, depth + 1, k)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Replaces the node that `path` (indices taken modulo each level's size) leads to with `junk`. */
function replaceAt(value: unknown, path: number[], junk: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return junk;
  const [step, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) {
    if (value.length === 0) return [junk];
    const copy = [...value];
    const at = step % copy.length;
    copy[at] = replaceAt(copy[at], rest, junk);
    return copy;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return junk;
  const [key, inner] = entries[step % entries.length]!;
  return { ...value, [key]: replaceAt(inner, rest, junk) };
}

/** `{"k": {"k": … }}` and `[[[ … ]]]` and filter-shaped `{operator, conditions: [ … ]}`, `depth` levels deep. */
function deepText(depth: number, key: string, shape: 'object' | 'array' | 'conditions'): string {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (shape === 'object') return `{${JSON.stringify(key)}:`.repeat(depth) + 'null' + '}'.repeat(depth);
  return (
    '{"operator":"AND","conditions":['.repeat(depth) +
    '{"field":"hostname","operator":"equals","value":"x"}' +
    ']}'.repeat(depth)
  );
}

const POLLUTION = [
  '{"__proto__":{"polluted":"yes","isAdmin":true,"scope":"system"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":[],"constructor":null,"prototype":{}}',
  '[{"__proto__":{"polluted":"yes"}}]',
];

const MALFORMED = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  'NaN',
  '"\\ud800"',
  '{"a":"\\u0000"}',
  '{"a":1,"a":2,"a":{"b":[]}}',
  '\u0000\u0000',
  '{"a":1e99999}',
  '{"a":-}',
  '',
  ' \n\t ',
  '\ufeff{"a":1}',
];

/** A JSON body for `schema`: near-valid with one junk node, wrong at the top, polluted, deep, huge or malformed. */
export function bodyText(
  schema: JsonSchema | null,
  ids: readonly string[],
): fc.Arbitrary<{ text: string; note: string }> {
  const s = schema ?? { type: 'object' };
  const keys = Object.keys(s.properties ?? {});
  const someKey = keys.length ? fc.constantFrom(...keys) : fc.constant('data');
  const json = (note: string) => (v: unknown) => ({ text: JSON.stringify(v) ?? 'null', note });
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(validish(s, ids), fc.array(fc.nat(), { maxLength: 4 }), junkValue(ids))
        .map(([v, path, junk]) => replaceAt(v, path, junk))
        .map(json('near-valid body, one junk value')),
    },
    { weight: 1, arbitrary: validish(s, ids).map(json('plausible body')) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.array(validish(s, ids), { maxLength: 2 }), junkValue(ids))
        .map(json('wrong type at the top (array, scalar, null)')),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(validish(s, ids), fc.constantFrom(...POLLUTION), someKey)
        .map(([v, pollution, key]) => {
          // Prototype-pollution keys at the top and under a known property, as raw text (an object literal would
          // swallow `__proto__`).
          const base = JSON.stringify(v ?? {}) ?? '{}';
          const text = base.startsWith('{')
            ? `{${pollution.slice(1, -1)},${JSON.stringify(key)}:${pollution}${base.length > 2 ? ',' : ''}${base.slice(1)}`
            : pollution;
          return { text, note: 'prototype-pollution keys' };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validish(s, ids), fc.constantFrom(...POLLUTION.slice(0, 2)))
        .map(([v, pollution]) => {
          // A plausible body whose object-valued properties (settings, address, customFields…) are pollution
          // attempts: what a merge of stored settings with the request would walk into.
          const PLACEHOLDER = '"\u0000pollution\u0000"';
          const objectKeys = Object.entries(s.properties ?? {})
            .filter(([, p]) => p.type === 'object' || p.type === undefined)
            .map(([k]) => k);
          const base = v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v } : {};
          for (const k of objectKeys) (base as Record<string, unknown>)[k] = '\u0000pollution\u0000';
          const text = JSON.stringify(base).split(PLACEHOLDER).join(pollution);
          return { text, note: 'prototype-pollution keys inside object properties' };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          someKey,
          fc.constantFrom(50, 2000, 20_000),
          fc.constantFrom('object', 'array', 'conditions') as fc.Arbitrary<'object' | 'array' | 'conditions'>,
        )
        .map(([key, depth, shape]) => ({
          text: `{${JSON.stringify(key)}:${deepText(depth, key, shape)}}`,
          note: `nesting ${depth} deep (${shape})`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validish(s, ids), someKey, fc.constantFrom('string', 'array', 'keys'))
        .map(([v, key, kind]) => {
          const huge =
            kind === 'string'
              ? HUGE
              : kind === 'array'
                ? Array.from({ length: 50_000 }, (_, i) => i)
                : Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
          const base = v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
          return { text: JSON.stringify({ ...base, [key]: huge }), note: `huge ${kind}` };
        }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED).map((text) => ({ text, note: 'malformed JSON' })) },
  );
}

// ---- path and query -----------------------------------------------------------------------------------------

/** Percent-encodes the UTF-8 bytes of `c` (a lone surrogate becomes U+FFFD, where encodeURIComponent throws). */
const bytesOf = (c: string) =>
  [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** encodeURIComponent that never throws. */
const pct = (s: string) => s.replace(/[^A-Za-z0-9\-_.!~*'()]/gu, bytesOf);

/** Encodes only what node:http refuses in a path (controls, spaces, non-ASCII) and what would end it (`?`, `#`). */
const rawSegment = (s: string) => s.replace(/[^\x21-\x7e]|[?#]/gu, bytesOf);

const PATH_JUNK = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%2F',
  '%2e%2e',
  '..',
  '.',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '0',
  '-1',
  '1e309',
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
];

/** A path parameter that names nothing: malformed, encoded junk, a random UUID. */
export function junkPathParam(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...PATH_JUNK),
    fc.uuid(),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(pct),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 30 }).map(rawSegment),
  );
}

const QUERY_VALUES = [
  '-1',
  '0',
  '-0',
  '1.5',
  '1e309',
  '99999999999999999999999999',
  '-99999999999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  ' 1',
  '',
  'true',
  'null',
  '[]',
  '{}',
];
const QUERY_NAMES = [
  'a[b]',
  '__proto__',
  'constructor[prototype][polluted]',
  '__proto__[polluted]',
  'page[]',
  '',
  '[]',
  'toString',
];

/** A query string: known parameters with junk, repeated keys (arrays), bracket keys (objects), broken encoding. */
export function junkQuery(op: Operation, ids: readonly string[]): fc.Arbitrary<string> {
  const known = op.query.map((q) => q.name);
  const name = fc.oneof(
    ...(known.length ? [{ arbitrary: fc.constantFrom(...known), weight: 4 }] : []),
    { arbitrary: fc.constantFrom(...QUERY_NAMES), weight: 1 },
    ...(known.length ? [{ arbitrary: fc.constantFrom(...known).map((k) => `${k}[x]`), weight: 1 }] : []),
  );
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...QUERY_VALUES), weight: 4 },
    { arbitrary: fc.constantFrom(...ids), weight: 2 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
    { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 2 },
    { arbitrary: fc.constant('9'.repeat(20_000)), weight: 1 },
  );
  const pair = fc.tuple(name, value, fc.boolean()).map(([n, v, raw]) =>
    // Mostly well encoded; sometimes raw, so `%` and friends reach the query parser undigested.
    raw ? `${rawSegment(n)}=${rawSegment(v)}` : `${pct(n)}=${pct(v)}`,
  );
  return fc.array(pair, { minLength: 1, maxLength: 6 }).map((pairs) => `?${pairs.join('&')}`);
}

/** A plausible query: each known parameter sometimes, with a value its schema could accept. */
export function plausibleQuery(op: Operation, ids: readonly string[]): fc.Arbitrary<string> {
  if (op.query.length === 0) return fc.constant('');
  const model = Object.fromEntries(
    op.query.map((q) => [
      q.name,
      validish(q.schema, ids, 0, q.name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
    ]),
  );
  return fc.record(model, { requiredKeys: [] }).map((q) => {
    const pairs = Object.entries(q).map(([k, v]) => `${pct(k)}=${pct(v ?? '')}`);
    return pairs.length ? `?${pairs.join('&')}` : '';
  });
}

// ---- headers ------------------------------------------------------------------------------------------------

const GZIP_BOMB = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)); // 8 MB of spaces in about 8 KB

export interface BodyEncoding {
  headers: Record<string, string>;
  body: Buffer;
  note: string;
}

/** The encodings the server decodes: claimed over a body that is not encoded, each must be a 4xx. */
export const UNDECODABLE_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

/**
 * `text` as sent: plain JSON, under a Content-Encoding it does not have (or an unknown one), as random bytes under
 * a real encoding, really compressed, as a decompression bomb, or under a wrong Content-Type or charset.
 */
export function encodedBody(text: string): fc.Arbitrary<BodyEncoding> {
  const plain = Buffer.from(text, 'utf8');
  const json = { 'content-type': 'application/json' };
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ headers: json, body: plain, note: 'json' }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...UNDECODABLE_ENCODINGS, 'GZIP', 'gzip, br', 'identity', 'compress', 'x-junk', '')
        .map((encoding) => ({
          headers: { ...json, 'content-encoding': encoding },
          body: plain,
          note: `content-encoding ${JSON.stringify(encoding)} over a plain body`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...UNDECODABLE_ENCODINGS), fc.uint8Array({ minLength: 1, maxLength: 64 }))
        .map(([encoding, bytes]) => ({
          headers: { ...json, 'content-encoding': encoding },
          body: Buffer.from(bytes),
          note: `content-encoding ${encoding} over random bytes`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('gzip', 'deflate', 'br').map((encoding) => ({
        headers: { ...json, 'content-encoding': encoding },
        body:
          encoding === 'gzip'
            ? gzipSync(plain)
            : encoding === 'deflate'
              ? deflateSync(plain)
              : brotliCompressSync(plain),
        note: `${encoding}-compressed body`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        headers: { ...json, 'content-encoding': 'gzip' },
        body: GZIP_BOMB,
        note: 'gzip bomb (8 MB inflated)',
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16le',
          'application/json; charset=latin1',
          'application/json; charset=koi8-r',
          'application/json; charset=bogus',
          'application/json; charset="utf-8"',
          'application/json;;;',
          'application/merge-patch+json',
          'application/*',
          '*/*',
          'json',
        )
        .map((type) => ({
          headers: { 'content-type': type },
          body: type.includes('utf-16') ? Buffer.from(text, 'utf16le') : plain,
          note: `content-type ${type}`,
        })),
    },
    { weight: 1, arbitrary: fc.constant({ headers: {}, body: plain, note: 'no content-type' }) },
  );
}

/** Credentials that must never work: malformed, forged, of another scheme. */
export const FORGED_CREDENTIALS: Array<Record<string, string>> = [
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' + 'x'.repeat(10_000) },
  { authorization: 'Bearer a.b.c' },
  // An unsigned token claiming system scope (alg "none").
  {
    authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: '00000000-0000-4000-8000-000000000001', scope: 'system', mfa: true, tv: 0 }),
    ).toString('base64url')}.`,
  },
  { authorization: 'Basic YWRtaW46YWRtaW4=' },
  { authorization: 'Bearer __proto__' },
  { 'x-api-key': 'svc_' + 'A'.repeat(32) },
  { 'x-api-key': '' },
  { 'x-api-key': 'svc_%00' },
  { 'x-api-key': 'x'.repeat(10_000) },
];
