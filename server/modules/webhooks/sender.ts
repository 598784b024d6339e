import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { request, type Agent } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookHeader } from '../../contract/webhooks';
import { pinnedLookup, type ResolvedAddress, type WebhookTarget } from './address';

// One HTTP attempt of a delivery (spec 2 Webhooks, delivery request): POST of the stored JSON body with the
// standard headers, then the webhook's own, signed with HMAC-SHA256 over `<signature timestamp>.<raw body>`.
// The connection goes to an address that address.ts already judged (the socket's `lookup` answers with it, and
// the TLS check still uses the URL's host name), so DNS cannot point the request elsewhere after the check.
// A redirect is a failure, never followed.

export const USER_AGENT = 'Service-Webhooks/1.0';
/** Only the first 1000 characters of a response are kept (spec 2 Limits); reading stops a little after that. */
export const RESPONSE_BODY_LIMIT = 1000;
const RESPONSE_READ_LIMIT = 64 * 1024;
/** The response headers kept for the delivery log, as JSON text (migration 0010 holds the column to it). */
export const RESPONSE_HEADERS_LIMIT = 4096;

export interface AttemptRequest {
  target: WebhookTarget;
  /** The addresses the target passed the check with; the first one of them is dialled. */
  addresses: ResolvedAddress[];
  body: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  secret: string | null;
  headers: WebhookHeader[];
  timeoutMs: number;
  /** Extra trusted certificate authorities (tests' throwaway CA); undefined uses the system's. */
  ca: string | undefined;
  agent: Agent;
  now: () => number;
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  body: string | null;
  timeMs: number;
  error: string | null;
  /** The headers this attempt sent; null when it was refused before sending. */
  requestHeaders: Record<string, string> | null;
  /** The receiver's headers, cut to RESPONSE_HEADERS_LIMIT; null without a response. */
  responseHeaders: Record<string, string> | null;
}

/** `sha256=<hex>` of HMAC-SHA256(secret, `<timestamp>.<body>`), as a receiver recomputes it. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function deliveryHeaders(
  input: Pick<AttemptRequest, 'body' | 'deliveryId' | 'eventId' | 'eventType' | 'secret' | 'headers'>,
  now: number,
): Record<string, string> {
  const timestamp = String(now);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Delivery-Id': input.deliveryId,
    'X-Service-Event-Id': input.eventId,
    'X-Service-Event-Type': input.eventType,
    'X-Service-Timestamp': timestamp,
  };
  if (input.secret !== null) {
    headers['X-Service-Signature'] = signature(input.secret, timestamp, input.body);
    headers['X-Service-Signature-Timestamp'] = timestamp;
  }
  // Custom headers come after the standard ones; schemas.ts refuses names that would replace one of them.
  for (const { key, value } of input.headers) headers[key] = value;
  return headers;
}

/**
 * The response's headers for the log, in the order received, as long as their JSON stays within the limit: a
 * receiver's headers are its own to size, the log's row is not. Repeated headers (set-cookie) are joined.
 */
export function keptResponseHeaders(received: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  let size = 2; // the braces
  for (const [name, value] of Object.entries(received)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const entrySize = JSON.stringify(name).length + JSON.stringify(text).length + 2; // colon and comma
    if (size + entrySize > RESPONSE_HEADERS_LIMIT) break;
    kept[name] = text;
    size += entrySize;
  }
  return kept;
}

/** An attempt that sent nothing (refused before a request was made). */
export function refusedAttempt(error: string): AttemptResult {
  return {
    ok: false,
    status: null,
    body: null,
    timeMs: 0,
    error,
    requestHeaders: null,
    responseHeaders: null,
  };
}

export function sendAttempt(input: AttemptRequest): Promise<AttemptResult> {
  const started = input.now();
  const pinned = input.addresses[0];
  if (!pinned) return Promise.resolve(refusedAttempt('No address'));
  // Exactly what goes on the wire (the log shows it): the delivery headers and the body's length.
  const headers = {
    ...deliveryHeaders(input, started),
    'Content-Length': String(Buffer.byteLength(input.body)),
  };
  const { url, host } = input.target;
  return new Promise((resolve) => {
    let settled = false;
    let responseHeaders: Record<string, string> | null = null;
    const finish = (result: Omit<AttemptResult, 'timeMs' | 'requestHeaders' | 'responseHeaders'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({
        ...result,
        timeMs: Math.max(0, input.now() - started),
        requestHeaders: headers,
        responseHeaders,
      });
    };
    const req = request(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: host,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        headers,
        lookup: pinnedLookup(pinned),
        // SNI and the certificate check use the name in the URL (a bare IP sends no SNI, as TLS requires).
        ...(isIP(host) ? {} : { servername: host }),
        ...(input.ca ? { ca: input.ca } : {}),
        agent: input.agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        responseHeaders = keptResponseHeaders(res.headers);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_READ_LIMIT) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('error', (err) => finish({ ok: false, status, body: null, error: err.message }));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT);
          const ok = status >= 200 && status < 300;
          const error = ok
            ? null
            : status >= 300 && status < 400
              ? `Redirect (HTTP ${status}) not followed`
              : `HTTP ${status}`;
          finish({ ok, status, body, error });
        });
      },
    );
    // One deadline for the whole attempt: connect, TLS, request and response.
    const deadline = setTimeout(() => {
      finish({ ok: false, status: null, body: null, error: `Timed out after ${input.timeoutMs} ms` });
      req.destroy();
    }, input.timeoutMs);
    req.on('error', (err) => finish({ ok: false, status: null, body: null, error: err.message }));
    req.end(input.body);
  });
}
