import { describe, expect, it } from 'vitest';
import { agentIdentity } from '../../agent-sim/identity';
import { Machine, RMM_PRODUCTS } from '../../agent-sim/machine';
import { backoff, jitter, Rng } from '../../agent-sim/random';

// The simulator's promise: the same seed gives the same fleet (what the machines are and do), while timing
// (jitter, backoff) may vary.

describe('seeded randomness', () => {
  it('repeats per key and differs between keys', () => {
    const a = Rng.of(1, 2, 'x');
    const b = Rng.of(1, 2, 'x');
    const c = Rng.of(1, 3, 'x');
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it('int, pick, weighted and sample stay in range', () => {
    const rng = Rng.of('range');
    for (let i = 0; i < 2000; i++) {
      const n = rng.int(3, 7);
      expect(n >= 3 && n <= 7 && Number.isInteger(n)).toBe(true);
    }
    expect(rng.weighted([['only', 1]] as const)).toBe('only');
    expect(
      rng.weighted([
        ['never', 0],
        ['always', 1],
      ] as const),
    ).toBe('always');
    const sample = rng.sample([1, 2, 3, 4, 5], 3);
    expect(new Set(sample).size).toBe(3);
    expect(rng.sample([1, 2], 5)).toHaveLength(2);
    expect(() => rng.pick([])).toThrow();
  });

  it('jitter stays within ±20% and backoff doubles to its cap', () => {
    for (let i = 0; i < 500; i++) {
      const j = jitter(1000);
      expect(j >= 800 && j <= 1200).toBe(true);
    }
    for (let i = 0; i < 200; i++) {
      const first = backoff(0, 1000, 30_000);
      expect(first >= 500 && first <= 1000).toBe(true);
      const third = backoff(2, 1000, 30_000);
      expect(third >= 2000 && third <= 4000).toBe(true);
      const capped = backoff(40, 1000, 30_000);
      expect(capped >= 15_000 && capped <= 30_000).toBe(true);
    }
  });
});

describe('agent identity', () => {
  it('is stable per seed and index, and differs across indexes and seeds', () => {
    expect(agentIdentity(5, 3)).toEqual(agentIdentity(5, 3));
    expect(agentIdentity(5, 3).hostname).not.toBe(agentIdentity(5, 4).hostname);
    expect(agentIdentity(6, 3).hardware.serialNumber).not.toBe(agentIdentity(5, 3).hardware.serialNumber);
  });

  it('keeps the machines of earlier releases (hostname, serial and MAC derivation unchanged)', () => {
    // As the first simulator release named them: saved state files and existing demo devices keep matching.
    expect(agentIdentity(1, 0)).toMatchObject({
      hostname: 'SRV-0001-LVU',
      osType: 'windows',
      osVersion: 'Windows Server 2022',
      hardware: { serialNumber: 'LVU1VI' },
      network: { macAddress: 'f2:49:91:07:09:9a' },
    });
    expect(agentIdentity(42, 7)).toMatchObject({
      hostname: 'LNX-0008-767',
      hardware: { serialNumber: '767E0C' },
      network: { macAddress: '89:e2:04:18:b3:4c' },
    });
  });

  it('produces enrollable values for every kind of machine', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = agentIdentity(9, i);
      kinds.add(id.osType);
      expect(['windows', 'macos', 'linux']).toContain(id.osType);
      expect(['x64', 'arm64']).toContain(id.architecture);
      expect(['workstation', 'server']).toContain(id.deviceRole);
      expect(id.network.ipAddress).toMatch(/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/);
      expect(id.hardware.cpuCores).toBeGreaterThan(0);
      if (id.osType === 'macos') expect(id.architecture).toBe('arm64');
    }
    expect(kinds).toEqual(new Set(['windows', 'macos', 'linux']));
  });
});

describe('machine state', () => {
  it('walks metrics within 0-100, the same way for the same seed', () => {
    const id = agentIdentity(3, 1);
    const a = new Machine(id, 3, 1, { metricVolatility: 3 });
    const b = new Machine(id, 3, 1, { metricVolatility: 3 });
    for (let i = 0; i < 2000; i++) {
      const m = a.tick();
      expect(b.tick()).toEqual(m);
      for (const v of Object.values(m)) expect(v >= 0 && v <= 100).toBe(true);
    }
    expect(['ok', 'warning', 'error']).toContain(a.health());
  });

  it('drifts: consecutive readings differ but stay close', () => {
    const m = new Machine(agentIdentity(4, 0), 4, 0);
    const first = m.tick();
    const second = m.tick();
    expect(second).not.toEqual(first);
    expect(Math.abs(second.ramPercent - first.ramPercent)).toBeLessThanOrEqual(3.1);
  });

  it('reports a few of the twelve management products, or never scans at all, per machine', () => {
    const seen = new Set<string>();
    let neverScanned = 0;
    for (let i = 0; i < 300; i++) {
      const posture = new Machine(agentIdentity(8, i), 8, i).posture();
      if (!posture) {
        neverScanned++;
        continue;
      }
      expect(posture.length).toBeLessThanOrEqual(3);
      for (const p of posture) {
        expect(RMM_PRODUCTS).toContain(p.product);
        expect(['installed', 'running', 'stopped']).toContain(p.status);
        seen.add(p.product);
      }
    }
    expect(RMM_PRODUCTS).toHaveLength(12);
    expect(seen.size).toBeGreaterThan(8);
    expect(neverScanned).toBeGreaterThan(5);
    expect(neverScanned).toBeLessThan(80);
  });

  it('has a stable software inventory that matches the OS', () => {
    const win = Array.from({ length: 50 }, (_, i) => i).find(
      (i) => agentIdentity(2, i).osType === 'windows',
    )!;
    const machine = new Machine(agentIdentity(2, win), 2, win);
    const software = machine.software();
    expect(new Machine(agentIdentity(2, win), 2, win).software()).toEqual(software);
    expect(software.map((s) => s.name)).toContain('Microsoft Edge');
    expect(new Set(software.map((s) => s.name)).size).toBe(software.length);
    for (const item of software) expect(item.version.length).toBeGreaterThan(0);
  });

  it('writes agent chatter with spec 2 levels', () => {
    const lines = new Machine(agentIdentity(1, 1), 1, 1).chatter(200, '1.0.0');
    expect(lines).toHaveLength(200);
    for (const line of lines) {
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level);
      expect(line.component.length).toBeLessThanOrEqual(100);
      expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false);
      expect(line.agentVersion).toBe('1.0.0');
    }
  });
});
