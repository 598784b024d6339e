import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enrollUntilDone } from '../../agent-sim/enroll';
import { agentIdentity } from '../../agent-sim/identity';
import { afterServerDelay } from '../../agent-sim/random';
import { AgentHttp } from '../../agent-sim/transport';

// The simulator's enrollment under a storm (issue 18): every attempt carries the same install id, a 429 is
// honoured for at least its Retry-After and counted as pacing rather than an error, other failures back off.

let server: Server;
let url = '';
const attempts: Array<{ at: number; body: { installId?: string } }> = [];
let answers: Array<{ status: number; headers?: Record<string, string> }> = [];

beforeEach(async () => {
  attempts.length = 0;
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      attempts.push({ at: Date.now(), body: JSON.parse(raw) });
      const answer = answers.shift() ?? { status: 201 };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(
        JSON.stringify(
          answer.status === 201
            ? {
                agentId: 'a-1',
                deviceId: 'd-1',
                orgId: 'o-1',
                siteId: null,
                authToken: 'agt_x',
                heartbeatIntervalSeconds: 60,
              }
            : { error: 'not now' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('enrollment retries', () => {
  it('keeps its install id, waits out Retry-After as pacing, and backs off after a failure', async () => {
    answers = [{ status: 429, headers: { 'Retry-After': '1' } }, { status: 503 }, { status: 201 }];
    const counted = { deferred: 0, errors: 0, enrolled: 0 };
    const outcome = await enrollUntilDone({
      attempt: {
        http: new AgentHttp(url),
        identity: agentIdentity(1, 0),
        installId: 'install-unit-0001',
        enrollmentKey: 'key',
        enrollmentSecret: undefined,
        agentVersion: () => '1.0.0',
        signal: new AbortController().signal,
      },
      startGate: undefined,
      onEnrolled: () => void counted.enrolled++,
      onError: () => void counted.errors++,
      onDeferred: () => void counted.deferred++,
    });
    expect(outcome?.kind).toBe('ok');
    expect(counted).toEqual({ deferred: 1, errors: 1, enrolled: 1 });
    expect(attempts.map((a) => a.body.installId)).toEqual(Array(3).fill('install-unit-0001'));
    // Never sooner than the server asked (one second).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
  }, 15_000);

  it('spreads a server delay past it, never before it', () => {
    const waits = Array.from({ length: 200 }, () => afterServerDelay(2000));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(3000);
    expect(new Set(waits).size).toBeGreaterThan(50);
  });
});
