import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentIdentity } from '../../agent-sim/identity';
import type { ElevationRequest } from '../../server/contract';
import { domainForOrg, seedForOrg } from '../../server/modules/demo/simulator';
import { mfaToken } from '../support/seed';
import type { TestServer } from '../support/server';
import { boot, indexesWhere, tenant, until, useFleets } from '../support/simulator';

// The demo reads true per tenant and per platform (issue 16): a demo organization's machines name only its own
// Windows domain in users and AD groups, whichever organization the panel starts them in; every request says which
// platform its device runs, so a Linux `.deb` is a sudo prompt in the console, not a UAC prompt.

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await boot({ env: { SEED_DEMO: 'true', DEMO_AGENTS: '3' } });
  admin = await mfaToken(server);
});
afterAll(async () => {
  await server.dispose();
});

const orgBySlug = (slug: string) =>
  (server.context.db.prepare('SELECT id FROM organizations WHERE slug = ?').get(slug) as { id: string }).id;
const osOf = (deviceId: string) =>
  (server.context.db.prepare('SELECT os_type FROM devices WHERE id = ?').get(deviceId) as { os_type: string })
    .os_type;

async function request(id: string): Promise<ElevationRequest> {
  const res = await server.api.get(`/pam/elevation-requests/${id}`, admin);
  expect(res.status).toBe(200);
  return res.body.request as ElevationRequest;
}

/** Every domain-qualified name of the request (user, groups) belongs to `domain`. */
function namesOf(r: ElevationRequest): string[] {
  return [r.subjectUsername ?? '', ...r.subjectAdGroups].filter((n) => n.includes('\\'));
}

/**
 * Starts the organization's demo fleet just large enough to hold a Windows workstation (its machines follow the
 * organization's seed), then raises technician sessions until one lands there, and returns every request raised.
 */
async function windowsRequestsIn(slug: string, name: string): Promise<ElevationRequest[]> {
  const orgId = orgBySlug(slug);
  const first = indexesWhere(
    seedForOrg(orgId),
    (id) => id.osType === 'windows' && id.deviceRole === 'workstation',
    1,
  )[0]!;
  const started = await server.api.post('/demo/simulator/start', { count: first + 1, orgId }, admin);
  expect(started.status).toBe(200);
  await until(
    `${name} agents connected`,
    async () => (await server.api.get('/demo/simulator', admin)).body.connected === first + 1,
  );
  const raised: ElevationRequest[] = [];
  while (raised.length < 40 && !raised.some((r) => r.deviceOsType === 'windows')) {
    const res = await server.api.post(
      '/demo/simulator/elevation-requests',
      { kind: 'admin_console', orgId },
      admin,
    );
    expect(res.status).toBe(200);
    raised.push(await request(res.body.id));
  }
  return raised;
}

describe('demo consistency', () => {
  it('derives a NetBIOS-style domain from the organization’s name', () => {
    expect(domainForOrg('Contoso Dental')).toBe('CONTOSO');
    expect(domainForOrg('Fabrikam Legal')).toBe('FABRIKAM');
    expect(domainForOrg('  A.B. Smith & Sons  ')).toBe('AB');
    expect(domainForOrg('Supercalifragilistic Ltd')).toBe('SUPERCALIFRAGIL');
  });

  it('names only the organization’s own domain: CONTOSO in Contoso Dental, FABRIKAM in Fabrikam Legal', async () => {
    for (const [slug, name, domain] of [
      ['contoso-dental', 'Contoso Dental', 'CONTOSO'],
      ['fabrikam-legal', 'Fabrikam Legal', 'FABRIKAM'],
    ] as const) {
      const raised = await windowsRequestsIn(slug, name);
      const windows = raised.find((r) => r.deviceOsType === 'windows');
      expect(windows?.subjectUsername).toMatch(new RegExp(`^${domain}\\\\[a-z]+-admin$`));
      for (const r of raised) {
        expect(r.orgId).toBe(orgBySlug(slug));
        expect(r.deviceOsType).toBe(osOf(r.deviceId));
        for (const qualified of namesOf(r)) expect(qualified.startsWith(`${domain}\\`)).toBe(true);
      }
    }
    await server.api.post('/demo/simulator/stop', {}, admin);
  });
});

describe('simulated machines and their platform', () => {
  const fleet = useFleets();

  it('a Linux package request says its device is Linux, with local users; Windows ones name the fleet’s domain', async () => {
    const { key } = tenant(server);
    const seed = 7;
    const linux = indexesWhere(seed, (id) => id.osType === 'linux', 1)[0]!;
    const windows = indexesWhere(
      seed,
      (id) => id.osType === 'windows' && id.deviceRole === 'workstation',
      1,
    )[0]!;
    expect(agentIdentity(seed, windows, 'TAILSPIN').domain).toBe('TAILSPIN');
    const raiser = (index: number) => {
      const f = fleet({
        server: server.url,
        enrollmentKey: key,
        count: 1,
        seed,
        firstIndex: index,
        domain: 'TAILSPIN',
      });
      return f;
    };
    const linuxFleet = raiser(linux);
    const windowsFleet = raiser(windows);
    await until(
      'both agents running',
      () => linuxFleet.stats().connected === 1 && windowsFleet.stats().connected === 1,
    );

    const deb = await request((await linuxFleet.raiseElevation({ kind: 'signed_installer' })).id!);
    expect(deb).toMatchObject({ flowType: 'uac_intercept', deviceOsType: 'linux' });
    expect(deb.targetExecutablePath).toMatch(/\.deb$/);
    expect(namesOf(deb)).toEqual([]);

    const exe = await request((await windowsFleet.raiseElevation({ kind: 'signed_installer' })).id!);
    expect(exe).toMatchObject({ flowType: 'uac_intercept', deviceOsType: 'windows' });
    expect(exe.subjectUsername).toMatch(/^TAILSPIN\\/);
    for (const name of namesOf(exe)) expect(name).toMatch(/^TAILSPIN\\/);
  });
});
