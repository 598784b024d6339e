import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { badRequest, HttpError } from './errors';

// The one JSON body reader of the API (DESIGN §6). Every way a body can be wrong ends in a 4xx with a clear
// message: a foreign media type or charset, an encoding we do not speak, bytes that do not decode, too many bytes,
// text that is not JSON, JSON nested deeper than any request of the API, or a NUL character in a string. Nothing
// here can throw a 500.
// The caller decides the size limit, because it depends on who is asking (route.ts reads bodies only after
// authentication, and strangers get a small limit).

/** Deeper than any body the API accepts (a saved filter nests 32 groups of two levels each), far from the stack. */
export const MAX_JSON_DEPTH = 100;

export const MALFORMED_JSON = 'Malformed JSON body';
export const NUL_IN_BODY = 'Request body must not contain NUL characters';

/** Compressed bodies are decoded; the limit applies to the decoded bytes, so a small bomb stays small. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const tooLarge = () => new HttpError(413, 'Request body too large', 'PAYLOAD_TOO_LARGE');
const unsupportedMediaType = (message: string, code: string) => new HttpError(415, message, code);

/** A body is declared by a positive Content-Length or by chunked transfer; `Content-Length: 0` has none. */
function declaresBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isNaN(length) || length > 0;
}

/** `application/json` with no charset or UTF-8 (RFC 8259 §8.1); parameters other than charset are ignored. */
function assertJsonMediaType(header: string | undefined): void {
  const [type = '', ...params] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') {
    throw unsupportedMediaType('Content-Type must be application/json', 'UNSUPPORTED_MEDIA_TYPE');
  }
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw unsupportedMediaType('Unsupported charset: JSON bodies must be UTF-8', 'UNSUPPORTED_CHARSET');
    }
  }
}

/** The decoder for the body's Content-Encoding; null for identity. Stacked encodings are not accepted. */
function decoderFor(header: string | undefined): { name: string; create: () => Transform } | null {
  const name = (header ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return null;
  const create = DECODERS[name];
  if (!create) throw unsupportedMediaType('Unsupported content encoding', 'UNSUPPORTED_ENCODING');
  return { name, create };
}

/**
 * Reads the (decoded) body into one buffer, refusing it as soon as it passes `limit` bytes. On refusal the rest
 * of the request is discarded, so the connection stays usable for the error answer.
 */
function collect(
  req: IncomingMessage,
  decoder: { name: string; create: () => Transform } | null,
  limit: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const stream = decoder?.create() ?? null;
    const source: Readable = stream ? req.pipe(stream) : req;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: HttpError | null) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (stream) {
        req.unpipe(stream);
        stream.on('error', () => {}); // a decoder destroyed mid-stream may still complain; nobody listens
        stream.destroy();
      }
      if (error) {
        req.resume();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(tooLarge());
      else chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('end', () => settle(null));
    if (stream && decoder) {
      stream.once('error', () =>
        settle(badRequest(`Request body could not be decoded as ${decoder.name}`, 'UNDECODABLE_BODY')),
      );
    }
    // A client that goes away mid-body: nobody reads the answer, but the request must not wait forever.
    req.once('error', () => settle(badRequest('Request body was not received in full', 'INCOMPLETE_BODY')));
    req.once('close', () => {
      if (!req.complete) settle(badRequest('Request body was not received in full', 'INCOMPLETE_BODY'));
    });
  });
}

/**
 * What is wrong with a parsed body beyond its syntax, in one iterative walk (no recursion):
 *   - objects or arrays nested more than `max` levels deep;
 *   - a NUL character in any string or key. No field of the API has a use for one, and SQLite's text functions
 *     stop at it, so `length(name)` in a CHECK reads "\u0000x" as empty and the insert would fail as a 500.
 */
function shapeProblem(value: unknown, max: number): HttpError | null {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.node === 'string') {
      if (item.node.includes('\u0000')) return badRequest(NUL_IN_BODY, 'NUL_IN_BODY');
      continue;
    }
    if (item.node === null || typeof item.node !== 'object') continue;
    if (item.depth > max) {
      return badRequest(`Request body is nested more than ${max} levels deep`, 'BODY_TOO_DEEP');
    }
    for (const [key, child] of Object.entries(item.node)) {
      if (key.includes('\u0000')) return badRequest(NUL_IN_BODY, 'NUL_IN_BODY');
      stack.push({ node: child, depth: item.depth + 1 });
    }
  }
  return null;
}

/** Strict JSON: UTF-8 text whose top level is an object or an array (scalars are not request bodies here). */
function parseJson(raw: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw); // also drops a leading BOM
  } catch {
    throw badRequest(MALFORMED_JSON, 'INVALID_JSON');
  }
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') throw badRequest(MALFORMED_JSON, 'INVALID_JSON');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(MALFORMED_JSON, 'INVALID_JSON');
  }
  const problem = shapeProblem(value, MAX_JSON_DEPTH);
  if (problem) throw problem;
  return value;
}

/**
 * The request's JSON body, or undefined when it has none (no body, or zero bytes). Throws an HttpError (400,
 * 413 or 415) for anything else that is not a JSON document of at most `limit` decoded bytes.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!declaresBody(req)) return undefined;
  assertJsonMediaType(req.headers['content-type']);
  const decoder = decoderFor(req.headers['content-encoding']);
  // A declared length over the limit is refused before a byte is read (only meaningful without an encoding).
  if (!decoder && Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    throw tooLarge();
  }
  const raw = await collect(req, decoder, limit);
  return raw.length === 0 ? undefined : parseJson(raw);
}
