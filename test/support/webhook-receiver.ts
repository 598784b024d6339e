import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real HTTPS webhook receiver for tests and the bench: a throwaway certificate authority made with the openssl
// CLI, a leaf certificate for localhost and 127.0.0.1 signed by it, and a server that records every request
// (headers and raw body) and answers as the test says. The server under test trusts the CA through
// NODE_EXTRA_CA_CERTS (a child process) or the webhooks `ca` option (in process); TLS is never switched off.

export interface TestCa {
  /** PEM of the CA certificate (what the server under test trusts). */
  caPem: string;
  /** Path of the CA certificate file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  keyPem: string;
  certPem: string;
  dispose(): void;
}

/** Creates a CA and a localhost certificate it signed, in a temporary directory. */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-webhook-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Gatehouse test CA',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    at('leaf.key'),
    '-out',
    at('leaf.csr'),
  );
  writeFileSync(
    at('leaf.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:receiver.example.test\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    at('leaf.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    at('leaf.ext'),
    '-out',
    at('leaf.pem'),
  );
  return {
    caPem: readFileSync(at('ca.pem'), 'utf8'),
    caFile: at('ca.pem'),
    keyPem: readFileSync(at('leaf.key'), 'utf8'),
    certPem: readFileSync(at('leaf.pem'), 'utf8'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Header names in the order they arrived (lower-cased). */
  headerOrder: string[];
  body: string;
  at: number;
}

/** What the receiver answers to one request: a status, optional headers and body. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer this much later (an attempt in flight for a while). */
  delayMs?: number;
}

export interface Receiver {
  server: Server;
  port: number;
  /** `https://localhost:<port>` */
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer per request; 200 `ok` unless replaced. */
  reply: (request: ReceivedRequest) => Reply;
  /** Resolves once `predicate` holds for the recorded requests (checked on every request). */
  until(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(ca: TestCa, port = 0): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const receiver = {
    requests: [] as ReceivedRequest[],
    reply: (): Reply => ({ status: 200, body: 'ok' }),
  } as unknown as Receiver;
  const server = createServer({ key: ca.keyPem, cert: ca.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = {
        path: req.url ?? '/',
        headers: req.headers,
        headerOrder: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      receiver.requests.push(request);
      const answer = receiver.reply(request);
      const respond = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(respond, answer.delayMs);
      else respond();
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  Object.assign(receiver, {
    server,
    port: bound,
    url: `https://localhost:${bound}`,
    until(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        if (predicate(receiver.requests)) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `receiver: condition not met within ${timeoutMs} ms (${receiver.requests.length} requests)`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (!predicate(receiver.requests)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}

/** What a receiver does with a delivery: recompute the signature over `<signature timestamp>.<raw body>`. */
export function signatureValid(request: ReceivedRequest, secret: string): boolean {
  const timestamp = request.headers['x-service-signature-timestamp'];
  const sent = request.headers['x-service-signature'];
  if (typeof timestamp !== 'string' || typeof sent !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return sent.length === expected.length && timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/** The X-Service-Event-Id of a recorded request. */
export const eventIdOf = (request: ReceivedRequest): string => String(request.headers['x-service-event-id']);
