import { createHash } from 'node:crypto';
import { Rng } from './random';

// A simulated agent's stable identity: the same seed and index always give the same machine, so a fleet can be
// stopped and started again and the server sees the same devices come back. The fields that existed first
// (hostname, OS, hardware, MAC) keep their original derivation so earlier seeds name the same machines.

export type OsType = 'windows' | 'macos' | 'linux';
export type Architecture = 'x64' | 'arm64';

export interface AgentIdentity {
  hostname: string;
  osType: OsType;
  osVersion: string;
  osBuild: string;
  architecture: Architecture;
  deviceRole: 'workstation' | 'server';
  hardware: {
    manufacturer: string;
    model: string;
    serialNumber: string;
    cpuModel: string;
    cpuCores: number;
    ramTotalMb: number;
    diskTotalGb: number;
    gpuModel: string;
  };
  network: { ipAddress: string; macAddress: string };
  /** Who usually signs in here (servers: an administrator account). */
  primaryUser: string;
  /** Windows-style domain the machine belongs to (its event logs, users and groups name it). */
  domain: string;
}

/**
 * The fleet's domain when none is given (`--domain`). One per fleet, like a customer's Active Directory: every
 * machine of an organization names the same domain in its users, groups and logs.
 */
export const DEFAULT_DOMAIN = 'CONTOSO';

/** Deterministic pseudo-random numbers from (seed, index, salt). */
function pick(seed: number, index: number, salt: string, modulo: number): number {
  const digest = createHash('sha256').update(`${seed}:${index}:${salt}`).digest();
  return digest.readUInt32BE(0) % modulo;
}

const FLEET = [
  {
    osType: 'windows',
    osVersion: 'Windows 11 Pro 24H2',
    osBuild: '26100.4061',
    architecture: 'x64',
    manufacturer: 'Dell Inc.',
    model: 'Latitude 7450',
    cpuModel: 'Intel Core i7-1370P',
    gpuModel: 'Intel Iris Xe Graphics',
    role: 'workstation',
    prefix: 'WS',
  },
  {
    osType: 'windows',
    osVersion: 'Windows Server 2022',
    osBuild: '20348.3561',
    architecture: 'x64',
    manufacturer: 'HPE',
    model: 'ProLiant DL360 Gen11',
    cpuModel: 'Intel Xeon Gold 5416S',
    gpuModel: 'Matrox G200eH3',
    role: 'server',
    prefix: 'SRV',
  },
  {
    osType: 'macos',
    osVersion: 'macOS 15.4',
    osBuild: '24E248',
    architecture: 'arm64',
    manufacturer: 'Apple',
    model: 'MacBook Pro (M3)',
    cpuModel: 'Apple M3 Pro',
    gpuModel: 'Apple M3 Pro (18-core GPU)',
    role: 'workstation',
    prefix: 'MAC',
  },
  {
    osType: 'linux',
    osVersion: 'Ubuntu 24.04 LTS',
    osBuild: '6.8.0-60-generic',
    architecture: 'x64',
    manufacturer: 'Lenovo',
    model: 'ThinkCentre M90q',
    cpuModel: 'Intel Core i7-1370P',
    gpuModel: 'Intel UHD Graphics 770',
    role: 'workstation',
    prefix: 'LNX',
  },
] as const;

const FIRST = ['alex', 'blair', 'casey', 'dana', 'eli', 'fran', 'gale', 'hana', 'ivan', 'jo', 'kai', 'lee'];
const LAST = ['morgan', 'nguyen', 'okafor', 'patel', 'quinn', 'rossi', 'silva', 'tanaka', 'ueda', 'vance'];
export function agentIdentity(seed: number, index: number, domain = DEFAULT_DOMAIN): AgentIdentity {
  const kind = FLEET[pick(seed, index, 'kind', FLEET.length)]!;
  const serial = pick(seed, index, 'serial', 36 ** 6)
    .toString(36)
    .toUpperCase()
    .padStart(6, '0');
  const mac = Array.from({ length: 6 }, (_, i) =>
    pick(seed, index, `mac${i}`, 256).toString(16).padStart(2, '0'),
  ).join(':');
  const rng = Rng.of(seed, index, 'identity');
  const user = `${rng.pick(FIRST)}.${rng.pick(LAST)}`;
  return {
    hostname: `${kind.prefix}-${String(index + 1).padStart(4, '0')}-${serial.slice(0, 3)}`,
    osType: kind.osType,
    osVersion: kind.osVersion,
    osBuild: kind.osBuild,
    architecture: kind.architecture,
    deviceRole: kind.role,
    hardware: {
      manufacturer: kind.manufacturer,
      model: kind.model,
      serialNumber: serial,
      cpuModel: kind.cpuModel,
      cpuCores: [4, 8, 12, 16][pick(seed, index, 'cores', 4)]!,
      ramTotalMb: [8192, 16384, 32768][pick(seed, index, 'ram', 3)]!,
      diskTotalGb: [256, 512, 1024][pick(seed, index, 'disk', 3)]!,
      gpuModel: kind.gpuModel,
    },
    network: {
      ipAddress: `10.${rng.int(0, 3) * 10 + (seed % 10)}.${rng.int(1, 254)}.${rng.int(10, 250)}`,
      macAddress: mac,
    },
    primaryUser: kind.role === 'server' ? 'Administrator' : user,
    domain,
  };
}
