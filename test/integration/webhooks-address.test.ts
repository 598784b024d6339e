import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:https';
import { addressAllowed, parseTarget, type ResolvedAddress } from '../../server/modules/webhooks/address';
import { sendAttempt } from '../../server/modules/webhooks/sender';
import { deliveryWhere, startWebhookWorld, type WebhookWorld } from '../support/webhook-world';

// Address safety (spec 2 URL safety; issue 12 item 3): every forbidden address class, in every spelling the URL
// parser accepts (plain, decimal, hex, octal, short, IPv4-mapped and other IPv6 forms), refused at create and again
// at delivery, where nothing is sent; host names judged by every address they resolve to; and a name that resolves
// to a public address at check time and a private one afterwards never gets a request, because the request goes
// to the address that was checked. The server here runs without WEBHOOK_ALLOW_PRIVATE_TARGETS and with a resolver
// the test controls.

/** One IPv4 address of each forbidden class. */
const FORBIDDEN_V4: Array<[label: string, address: string]> = [
  ['loopback', '127.0.0.1'],
  ['loopback (elsewhere in 127/8)', '127.42.0.9'],
  ['RFC 1918 10/8', '10.0.0.1'],
  ['RFC 1918 172.16/12', '172.16.5.4'],
  ['RFC 1918 192.168/16', '192.168.1.1'],
  ['RFC 6598 shared', '100.64.0.1'],
  ['RFC 5737 TEST-NET-1', '192.0.2.1'],
  ['RFC 5737 TEST-NET-2', '198.51.100.7'],
  ['RFC 5737 TEST-NET-3', '203.0.113.9'],
  ['link-local (metadata)', '169.254.169.254'],
  ['unspecified', '0.0.0.0'],
  ['multicast', '224.0.0.1'],
  ['broadcast', '255.255.255.255'],
];

const octets = (ip: string) => ip.split('.').map(Number) as [number, number, number, number];
const asInt = (ip: string) => octets(ip).reduce((n, o) => n * 256 + o, 0);
const hexWords = (ip: string) => {
  const [a, b, c, d] = octets(ip);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

/** Every spelling of an IPv4 address a URL host can take. */
function spellings(ip: string): Array<[form: string, host: string]> {
  const [a, b, c, d] = octets(ip);
  return [
    ['plain', ip],
    ['decimal', String(asInt(ip))],
    ['hex', `0x${asInt(ip).toString(16)}`],
    [
      'octal',
      octets(ip)
        .map((o) => `0${o.toString(8)}`)
        .join('.'),
    ],
    ['short', `${a}.${(b << 16) | (c << 8) | d}`],
    ['IPv4-mapped', `[::ffff:${ip}]`],
    ['IPv4-mapped hex', `[::ffff:${hexWords(ip)}]`],
    ['NAT64', `[64:ff9b::${ip}]`],
    ['IPv4-compatible', `[::${ip}]`],
    ['6to4', `[2002:${hexWords(ip)}::1]`],
  ];
}

const FORBIDDEN_V6: Array<[label: string, host: string]> = [
  ['loopback', '[::1]'],
  ['loopback, long form', '[0:0:0:0:0:0:0:1]'],
  ['unspecified', '[::]'],
  ['unique local fc00::/7', '[fc00::1]'],
  ['unique local fd', '[fd12:3456:789a::1]'],
  ['link-local', '[fe80::1]'],
  ['documentation 2001:db8::/32', '[2001:db8::1]'],
  ['multicast', '[ff02::1]'],
  ['local-use NAT64', '[64:ff9b:1::a00:1]'],
];

const FORBIDDEN_NAMES = ['localhost', 'LOCALHOST.', 'api.localhost', 'printer.local', 'nas.LOCAL'];

const forbiddenUrls: Array<[label: string, url: string]> = [
  ...FORBIDDEN_V4.flatMap(([label, ip]) =>
    spellings(ip).map(([form, host]) => [`${label}, ${form}`, `https://${host}/hook`] as [string, string]),
  ),
  ...FORBIDDEN_V6.map(([label, host]) => [`IPv6 ${label}`, `https://${host}/hook`] as [string, string]),
  ...FORBIDDEN_NAMES.map((name) => [`name ${name}`, `https://${name}:8443/hook`] as [string, string]),
];

/** Names the test's resolver knows; anything else does not resolve. */
const DNS: Record<string, string[]> = {
  'public.example.test': ['93.184.216.34'],
  'private.example.test': ['10.1.2.3'],
  'mixed.example.test': ['93.184.216.34', '192.168.0.10'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'ula.example.test': ['fd00::5'],
};
/** Per name, answers to come in order (the last repeats): a rebinding DNS server. */
const script = new Map<string, string[][]>();
const lookups: string[] = [];

async function resolver(host: string): Promise<ResolvedAddress[]> {
  lookups.push(host);
  const queued = script.get(host);
  const answer = queued && queued.length > 1 ? queued.shift() : (queued?.[0] ?? DNS[host]);
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

let world: WebhookWorld;

beforeAll(async () => {
  world = await startWebhookWorld({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
    webhooks: { resolver, attemptTimeoutMs: 1500 },
  });
});
afterAll(async () => {
  await world?.dispose();
});

const create = (url: string) =>
  world.server.api.request('POST', '/webhooks', {
    token: world.admin,
    body: { name: 'ssrf', url, events: ['device.online'], orgId: world.orgId },
  });

/** A webhook written straight into SQLite (as if its URL had been safe when saved), failing after one attempt. */
function insertWebhook(url: string): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  world.server.context.db
    .prepare(
      `INSERT INTO webhooks (id, org_id, name, url, events, retry_policy, created_at, updated_at)
       VALUES (?, ?, 'planted', ?, '["device.online"]', ?, ?, ?)`,
    )
    .run(
      id,
      world.orgId,
      url,
      JSON.stringify({ maxRetries: 0, initialDelayMs: 10, backoffMultiplier: 1, maxDelayMs: 10 }),
      at,
      at,
    );
  return id;
}

describe('address safety', () => {
  it('the URL parser brings every spelling to one address, which the check refuses', () => {
    for (const [label, url] of forbiddenUrls) expect(parseTarget(url, false), `${label}: ${url}`).toBeNull();
    // The parser really does normalise (the check sees dotted quads, not the spelling).
    expect(new URL('https://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('https://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(new URL('https://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('https://127.1/').hostname).toBe('127.0.0.1');
    expect(new URL('https://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');

    for (const url of [
      'https://93.184.216.34/hook',
      `https://${asInt('8.8.8.8')}/hook`,
      'https://[2606:4700:4700::1111]/hook',
      'https://[64:ff9b::8.8.8.8]/hook',
      'https://hooks.example.com/hook',
    ])
      expect(parseTarget(url, false), url).not.toBeNull();
    expect(parseTarget('http://93.184.216.34/hook', false)).toBeNull();

    // WEBHOOK_ALLOW_PRIVATE_TARGETS opens loopback and private ranges, never plain HTTP nor non-unicast addresses.
    expect(parseTarget('https://127.0.0.1:8443/', true)).not.toBeNull();
    expect(parseTarget('https://localhost:8443/', true)).not.toBeNull();
    expect(parseTarget('http://127.0.0.1:8443/', true)).toBeNull();
    for (const address of ['0.0.0.0', '224.0.0.1', '::', 'ff02::1'])
      expect(addressAllowed(address, true)).toBe(false);
  });

  it('refuses every forbidden address class and spelling at create, and names resolving to one', async () => {
    for (const [label, url] of forbiddenUrls) {
      const res = await create(url);
      expect([res.status, res.body.error], `${label}: ${url}`).toEqual([400, 'Invalid webhook URL']);
    }
    for (const name of [
      'private.example.test',
      'mixed.example.test',
      'mapped.example.test',
      'ula.example.test',
    ]) {
      const res = await create(`https://${name}/hook`);
      expect([res.status, res.body.error], name).toEqual([400, 'Invalid webhook URL']);
    }
    expect((await create('https://public.example.test/hook')).status).toBe(201);
    // A name that does not resolve today points nowhere; every attempt checks it again.
    expect((await create('https://not-yet.example.test/hook')).status).toBe(201);
  });

  it('refuses them again at delivery, without sending', async () => {
    const before = world.receiver.requests.length;
    const planted = [
      ...forbiddenUrls.map(([label, url]) => ({ label, id: insertWebhook(url) })),
      {
        label: 'name resolving to a private address',
        id: insertWebhook('https://private.example.test/hook'),
      },
    ];
    for (const { id } of planted) await world.server.api.post(`/webhooks/${id}/test`, {}, world.admin);
    for (const { label, id } of planted) {
      const failed = await deliveryWhere(world, id, (d) => d.status === 'failed');
      expect(failed.errorMessage, label).toBe('Unsafe webhook URL');
      expect(failed.responseStatus, label).toBeNull();
    }
    expect(world.receiver.requests.length).toBe(before);
  });

  it('checks the name again before each attempt: a name that turned private is refused', async () => {
    script.set('flip.example.test', [['93.184.216.34'], ['10.9.8.7']]);
    expect((await create('https://flip.example.test/hook')).status).toBe(201);
    const listed = await world.server.api.get(`/webhooks?orgId=${world.orgId}&limit=100`, world.admin);
    const hook = listed.body.data.find((w: { url: string }) => w.url === 'https://flip.example.test/hook');
    await world.server.api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { retryPolicy: { maxRetries: 0, initialDelayMs: 10, backoffMultiplier: 1, maxDelayMs: 10 } },
    });
    await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const failed = await deliveryWhere(world, hook.id, (d) => d.status === 'failed');
    expect(failed.errorMessage).toBe('Unsafe webhook URL');
  });

  it('connects to the address it checked: public at check time, private afterwards, never gets a request', async () => {
    // The receiver's certificate is valid for receiver.example.test and it listens on 127.0.0.1: were the socket
    // to resolve the name again, it would land there and the request would be recorded.
    const host = 'receiver.example.test';
    script.set(host, [['93.184.216.34'], ['93.184.216.34'], ['127.0.0.1']]);
    lookups.length = 0;
    const url = `https://${host}:${world.receiver.port}/hook`;
    expect((await create(url)).status).toBe(201);
    const listed = await world.server.api.get(`/webhooks?orgId=${world.orgId}&limit=100`, world.admin);
    const hook = listed.body.data.find((w: { url: string }) => w.url === url);
    await world.server.api.request('PATCH', `/webhooks/${hook.id}`, {
      token: world.admin,
      body: { retryPolicy: { maxRetries: 0, initialDelayMs: 10, backoffMultiplier: 1, maxDelayMs: 10 } },
    });
    const before = world.receiver.requests.length;
    await world.server.api.post(`/webhooks/${hook.id}/test`, {}, world.admin);
    const failed = await deliveryWhere(world, hook.id, (d) => d.status === 'failed', 15_000);
    // It went to the checked public address (unreachable from this sandbox, or refused), not to the receiver.
    expect(failed.errorMessage).not.toBe('Unsafe webhook URL');
    expect(world.receiver.requests.length).toBe(before);
    // One lookup at create, one before the attempt; the connection itself looked nothing up.
    expect(lookups.filter((h) => h === host)).toHaveLength(2);
  });

  it('dials the checked address itself: a name no DNS knows reaches the address it was checked at', async () => {
    // receiver.example.test resolves nowhere on this machine; only the pinned address can bring the request to
    // the receiver on 127.0.0.1, and the TLS check still uses the name (the certificate is issued for it).
    const target = parseTarget(`https://receiver.example.test:${world.receiver.port}/pinned`, true)!;
    const agent = new Agent({ keepAlive: false });
    const result = await sendAttempt({
      target,
      addresses: [{ address: '127.0.0.1', family: 4 }],
      body: '{}',
      deliveryId: randomUUID(),
      eventId: randomUUID(),
      eventType: 'webhook.test',
      secret: null,
      headers: [],
      timeoutMs: 5000,
      ca: world.ca.caPem,
      agent,
      now: Date.now,
    });
    agent.destroy();
    expect(result).toMatchObject({ ok: true, status: 200 });
    const request = world.receiver.requests.find((r) => r.path === '/pinned');
    expect(request?.headers.host).toBe(`receiver.example.test:${world.receiver.port}`);
  });
});
