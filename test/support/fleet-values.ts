// The values a seeded fleet draws from: hostnames, display names, users, roles, statuses, hardware, tags, software,
// agent and OS versions. Several trip naive SQL on purpose: `%` and `_` in text, mixed case, names that differ
// only in case.

export type FleetOsType = 'windows' | 'macos' | 'linux';
export type FleetStatus = 'online' | 'offline' | 'maintenance' | 'quarantined' | 'decommissioned';

export const HOST_PREFIXES = ['WEB', 'web', 'db', 'DC', 'lab_', 'lab-', 'kiosk', 'Fin%', 'mac', 'edge'];
export const DISPLAY_NAMES = [
  'Front desk',
  'Finance 100%',
  'Build_Agent',
  'CEO laptop',
  'Warehouse scanner',
  'Lab bench',
];
export const USERS = ['alice', 'bob', 'CORP\\carol', 'dave.o', 'Émile', 'svc_backup'];
export const ROLES = ['workstation', 'workstation', 'server', 'printer', 'router', 'nas', 'iot', 'unknown'];
export const STATUSES: FleetStatus[] = [
  'online',
  'online',
  'online',
  'offline',
  'offline',
  'maintenance',
  'quarantined',
];
export const MANUFACTURERS = ['Dell Inc.', 'LENOVO', 'Apple', 'HP', 'Raspberry Pi Foundation'];
export const MODELS = ['OptiPlex 7090', 'ThinkPad X1', 'MacBook Pro', 'EliteDesk 800', 'Pi 4 Model B'];
export const CPUS = ['Intel(R) Core(TM) i7-1185G7', 'AMD Ryzen 7 5800X', 'Apple M2', 'ARM Cortex-A72'];
export const GPUS = ['NVIDIA GeForce RTX 3060', 'Intel Iris Xe', 'Apple M2 GPU', 'AMD Radeon 680M'];
export const TAGS = [
  'production',
  'Production',
  'staging',
  'finance',
  'vip',
  'kiosk',
  'lab_a',
  'laba',
  '50%off',
];
export const SOFTWARE = [
  'Google Chrome',
  'Mozilla Firefox',
  '7-Zip',
  'Microsoft Office 365',
  'Slack',
  'Zoom',
  'Visual Studio Code',
  'node_exporter',
  'nodeXexporter',
  'Adobe Acrobat Reader',
  'OpenSSH Server',
];
export const AGENT_VERSIONS = ['1.4.0', '1.4.2', '1.5.0', '2.0.0-beta.1'];
export const OS: Record<FleetOsType, { versions: string[]; builds: Array<string | null> }> = {
  windows: {
    versions: ['Windows 11 Pro', 'Windows 10 Enterprise', 'Windows Server 2022'],
    builds: ['22631', '19045', null],
  },
  macos: { versions: ['macOS 14.4', 'macOS 13.6'], builds: ['23E214', null] },
  linux: { versions: ['Ubuntu 22.04 LTS', 'Debian 12', 'Alpine 3.19'], builds: [null, '6.1.0-18'] },
};
