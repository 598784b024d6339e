import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedFetch } from '../../server/modules/sso/endpoints';

// Rule 12: a request to the IdP connects to the address that was judged, never to what DNS answers a second time.
// The name below does not resolve at all (`.invalid` is reserved for that), so an answer from the local server
// proves the socket went to the pinned address without asking DNS.
describe('SSO pinned fetch', () => {
  let server: Server;
  let port = 0;
  const seen: Array<{ method: string; host: string; type: string; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          host: req.headers.host ?? '',
          type: req.headers['content-type'] ?? '',
          body,
        });
        if (req.url === '/moved') {
          res.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('connects to the judged address whatever the name, and keeps the name in the Host header', async () => {
    const res = await pinnedFetch(
      { address: '127.0.0.1', family: 4 },
      `http://idp.gatehouse.invalid:${port}/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' }),
      },
    );
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      host: `idp.gatehouse.invalid:${port}`,
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      body: 'grant_type=authorization_code&code=abc',
    });
  });

  it('never follows a redirect (it could lead outside the rules)', async () => {
    const res = await pinnedFetch(
      { address: '127.0.0.1', family: 4 },
      `http://idp.gatehouse.invalid:${port}/moved`,
      {
        method: 'GET',
      },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://127.0.0.1/elsewhere');
  });
});
