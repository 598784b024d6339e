import type { AgentIdentity } from './identity';
import type { Rng } from './random';

// Words the event templates draw from: applications, services, updates, hosts, units, and seeded ids.

export const APPS = [
  'OUTLOOK',
  'EXCEL',
  'WINWORD',
  'Teams',
  'chrome',
  'msedge',
  'AcroRd32',
  'QuickBooks',
  'Dentrix',
];
export const WIN_SERVICES = [
  ['wuauserv', 'Windows Update'],
  ['BITS', 'Background Intelligent Transfer Service'],
  ['Spooler', 'Print Spooler'],
  ['WinDefend', 'Microsoft Defender Antivirus Service'],
  ['TrustedInstaller', 'Windows Modules Installer'],
  ['W32Time', 'Windows Time'],
  ['Dnscache', 'DNS Client'],
  ['sppsvc', 'Software Protection'],
  ['GatehouseAgent', 'Gatehouse Agent'],
] as const;
export const KBS = ['KB5055523', 'KB5055627', 'KB5056579', 'KB5058411', 'KB5060842', 'KB5062553'];
export const HOSTS = ['fileserver01', 'print.corp.local', 'login.microsoftonline.com', 'backup-nas', 'erp01'];
export const LINUX_UNITS = [
  'cron.service',
  'ssh.service',
  'snapd.service',
  'docker.service',
  'nginx.service',
  'cups.service',
];
export const MAC_APPS = ['Safari', 'Microsoft Outlook', 'Slack', 'zoom.us', 'Google Chrome', 'Finder'];

export const ip = (rng: Rng) =>
  `${rng.pick(['10.0', '192.168', '172.16'])}.${rng.int(0, 40)}.${rng.int(2, 250)}`;
export const pid = (rng: Rng) => String(rng.int(400, 24000));
export const hexId = (rng: Rng) => `0x${rng.hex(6)}`;
export const domainUser = (rng: Rng, id: AgentIdentity) =>
  id.deviceRole === 'server' && rng.chance(0.5)
    ? `${id.domain}\\svc-backup`
    : `${id.domain}\\${id.primaryUser}`;
export const SYSTEM_ACCOUNT = 'NT AUTHORITY\\SYSTEM';
