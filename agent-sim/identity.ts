import { createHash } from 'node:crypto';

// A simulated agent's stable identity: the same seed and index always give the same machine, so a fleet can be
// stopped and started again and the server sees the same devices come back.

export interface AgentIdentity {
  hostname: string;
  osType: 'windows' | 'macos' | 'linux';
  osVersion: string;
  architecture: 'x64' | 'arm64';
  hardware: {
    manufacturer: string;
    model: string;
    serialNumber: string;
    cpuModel: string;
    cpuCores: number;
    ramTotalMb: number;
    diskTotalGb: number;
  };
  network: { macAddress: string };
}

/** Deterministic pseudo-random numbers from (seed, index, salt). */
function pick(seed: number, index: number, salt: string, modulo: number): number {
  const digest = createHash('sha256').update(`${seed}:${index}:${salt}`).digest();
  return digest.readUInt32BE(0) % modulo;
}

const FLEET = [
  {
    osType: 'windows',
    osVersion: 'Windows 11 Pro 24H2',
    architecture: 'x64',
    manufacturer: 'Dell Inc.',
    model: 'Latitude 7450',
    prefix: 'WS',
  },
  {
    osType: 'windows',
    osVersion: 'Windows Server 2022',
    architecture: 'x64',
    manufacturer: 'HPE',
    model: 'ProLiant DL360 Gen11',
    prefix: 'SRV',
  },
  {
    osType: 'macos',
    osVersion: 'macOS 15.4',
    architecture: 'arm64',
    manufacturer: 'Apple',
    model: 'MacBook Pro (M3)',
    prefix: 'MAC',
  },
  {
    osType: 'linux',
    osVersion: 'Ubuntu 24.04 LTS',
    architecture: 'x64',
    manufacturer: 'Lenovo',
    model: 'ThinkCentre M90q',
    prefix: 'LNX',
  },
] as const;

export function agentIdentity(seed: number, index: number): AgentIdentity {
  const kind = FLEET[pick(seed, index, 'kind', FLEET.length)]!;
  const serial = pick(seed, index, 'serial', 36 ** 6)
    .toString(36)
    .toUpperCase()
    .padStart(6, '0');
  const mac = Array.from({ length: 6 }, (_, i) =>
    pick(seed, index, `mac${i}`, 256).toString(16).padStart(2, '0'),
  ).join(':');
  return {
    hostname: `${kind.prefix}-${String(index + 1).padStart(4, '0')}-${serial.slice(0, 3)}`,
    osType: kind.osType,
    osVersion: kind.osVersion,
    architecture: kind.architecture,
    hardware: {
      manufacturer: kind.manufacturer,
      model: kind.model,
      serialNumber: serial,
      cpuModel: kind.architecture === 'arm64' ? 'Apple M3 Pro' : 'Intel Core i7-1370P',
      cpuCores: [4, 8, 12, 16][pick(seed, index, 'cores', 4)]!,
      ramTotalMb: [8192, 16384, 32768][pick(seed, index, 'ram', 3)]!,
      diskTotalGb: [256, 512, 1024][pick(seed, index, 'disk', 3)]!,
    },
    network: { macAddress: mac },
  };
}
