import type { AgentIdentity, OsType } from './identity';
import type { Rng } from './random';

// What shows up in a simulated machine's operating-system logs: Windows event sources and ids, syslog-style
// programs for Linux, unified-log subsystems for macOS. Each template says how often it occurs, how severe it is
// and how to word one occurrence (the wording is drawn from the record's own seeded Rng, so a record reads the
// same every time it is generated).

export type LogName = 'Application' | 'System' | 'Security' | 'Setup';
export const LOG_NAMES: readonly LogName[] = ['Application', 'System', 'Security', 'Setup'];

export type LiveLevel = 'information' | 'warning' | 'error' | 'critical' | 'verbose';
export type StoredCategory = 'security' | 'hardware' | 'application' | 'system';

export interface Rendered {
  message: string;
  /** Named values for the XML EventData section. */
  data: Record<string, string>;
  /** `DOMAIN\user`-style account, null when the event has none. */
  user: string | null;
}

export interface EventTemplate {
  source: string;
  eventId: number;
  level: LiveLevel;
  /** The broad category used when the event is reported for storage (spec 2 device event log). */
  category: StoredCategory;
  /** Event Viewer's "Task Category" (or the subsystem category on macOS and Linux). */
  task: string;
  weight: number;
  /** Security audit failure (Windows keyword), shown as a warning. */
  auditFailure?: boolean;
  render: (rng: Rng, id: AgentIdentity) => Rendered;
}

const APPS = [
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
const WIN_SERVICES = [
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
const KBS = ['KB5055523', 'KB5055627', 'KB5056579', 'KB5058411', 'KB5060842', 'KB5062553'];
const HOSTS = [
  'fileserver01',
  'print.corp.local',
  'login.microsoftonline.com',
  'backup-nas',
  'erp.contoso.local',
];
const LINUX_UNITS = [
  'cron.service',
  'ssh.service',
  'snapd.service',
  'docker.service',
  'nginx.service',
  'cups.service',
];
const MAC_APPS = ['Safari', 'Microsoft Outlook', 'Slack', 'zoom.us', 'Google Chrome', 'Finder'];

const ip = (rng: Rng) => `${rng.pick(['10.0', '192.168', '172.16'])}.${rng.int(0, 40)}.${rng.int(2, 250)}`;
const pid = (rng: Rng) => String(rng.int(400, 24000));
const hexId = (rng: Rng) => `0x${rng.hex(6)}`;
const domainUser = (rng: Rng, id: AgentIdentity) =>
  id.deviceRole === 'server' && rng.chance(0.5)
    ? `${id.domain}\\svc-backup`
    : `${id.domain}\\${id.primaryUser}`;
const SYSTEM_ACCOUNT = 'NT AUTHORITY\\SYSTEM';

const WINDOWS: Record<LogName, EventTemplate[]> = {
  Application: [
    {
      source: 'Application Error',
      eventId: 1000,
      level: 'error',
      category: 'application',
      task: 'Application Crashing Events',
      weight: 4,
      render: (rng) => {
        const app = rng.pick(APPS);
        const code = rng.pick(['0xc0000005', '0xc0000409', '0xe0434352', '0x80000003']);
        return {
          message: `Faulting application name: ${app}.exe, version: 16.0.${rng.int(10000, 18000)}.20000, time stamp: 0x${rng.hex(8)}\nFaulting module name: ${rng.pick(['ntdll.dll', 'KERNELBASE.dll', 'ucrtbase.dll', 'mso.dll'])}\nException code: ${code}\nFault offset: 0x${rng.hex(8)}\nFaulting process id: ${hexId(rng)}`,
          data: { AppName: `${app}.exe`, ExceptionCode: code },
          user: null,
        };
      },
    },
    {
      source: 'Application Hang',
      eventId: 1002,
      level: 'error',
      category: 'application',
      task: 'Hang',
      weight: 2,
      render: (rng) => {
        const app = rng.pick(APPS);
        return {
          message: `The program ${app}.exe version 16.0.${rng.int(10000, 18000)}.20000 stopped interacting with Windows and was closed. To see if more information about the problem is available, check the problem history in the Security and Maintenance control panel.`,
          data: { AppName: `${app}.exe` },
          user: null,
        };
      },
    },
    {
      source: 'Windows Error Reporting',
      eventId: 1001,
      level: 'information',
      category: 'application',
      task: 'None',
      weight: 4,
      render: (rng) => ({
        message: `Fault bucket ${rng.int(1000000000, 2000000000)}, type ${rng.int(0, 5)}\nEvent Name: ${rng.pick(['APPCRASH', 'AppHangB1', 'BEX64', 'MoAppCrash'])}\nResponse: Not available`,
        data: { EventType: 'APPCRASH' },
        user: null,
      }),
    },
    {
      source: 'MsiInstaller',
      eventId: 11707,
      level: 'information',
      category: 'application',
      task: 'None',
      weight: 2,
      render: (rng, id) => {
        const product = rng.pick([
          'Microsoft Edge WebView2 Runtime',
          'Zoom Workplace',
          'Adobe Acrobat (64-bit)',
          '7-Zip 24.09',
        ]);
        return {
          message: `Product: ${product} -- Installation completed successfully.`,
          data: { Product: product },
          user: `${id.domain}\\${id.primaryUser}`,
        };
      },
    },
    {
      source: '.NET Runtime',
      eventId: 1026,
      level: 'error',
      category: 'application',
      task: 'None',
      weight: 1,
      render: (rng) => {
        const app = rng.pick(['QuickBooks', 'Dentrix', 'LineOfBusiness', 'BackupAssist']);
        return {
          message: `Application: ${app}.exe\nFramework Version: v4.0.30319\nDescription: The process was terminated due to an unhandled exception.\nException Info: System.${rng.pick(['NullReferenceException', 'IO.IOException', 'Net.WebException', 'TimeoutException'])}`,
          data: { AppName: `${app}.exe` },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Security-SPP',
      eventId: 16384,
      level: 'information',
      category: 'application',
      task: 'None',
      weight: 5,
      render: (rng) => ({
        message: `Successfully scheduled Software Protection service for re-start at ${new Date(Date.UTC(2025, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23), rng.int(0, 59))).toISOString()}. Reason: RulesEngine.`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'VSS',
      eventId: 8224,
      level: 'information',
      category: 'application',
      task: 'None',
      weight: 3,
      render: () => ({
        message: 'The VSS service is shutting down due to idle timeout.',
        data: {},
        user: null,
      }),
    },
    {
      source: 'Microsoft-Windows-User Profiles Service',
      eventId: 1530,
      level: 'warning',
      category: 'application',
      task: 'None',
      weight: 2,
      render: (rng) => ({
        message: `Windows detected your registry file is still in use by other applications or services. The file will be unloaded now. The applications or services that hold your registry file may not function properly afterwards.\n\n DETAIL - \n ${rng.int(2, 9)} user registry handles leaked from \\Registry\\User\\S-1-5-21-${rng.int(1000000000, 3999999999)}-${rng.int(1000, 9999)}`,
        data: {},
        user: SYSTEM_ACCOUNT,
      }),
    },
    {
      source: 'SecurityCenter',
      eventId: 15,
      level: 'information',
      category: 'application',
      task: 'None',
      weight: 2,
      render: () => ({
        message: 'Updated Windows Defender status successfully to SECURITY_PRODUCT_STATE_ON.',
        data: {},
        user: null,
      }),
    },
  ],
  System: [
    {
      source: 'Service Control Manager',
      eventId: 7036,
      level: 'information',
      category: 'system',
      task: 'None',
      weight: 12,
      render: (rng) => {
        const [, name] = rng.pick(WIN_SERVICES);
        const state = rng.pick(['running', 'stopped']);
        return {
          message: `The ${name} service entered the ${state} state.`,
          data: { param1: name, param2: state },
          user: null,
        };
      },
    },
    {
      source: 'Service Control Manager',
      eventId: 7031,
      level: 'error',
      category: 'system',
      task: 'None',
      weight: 1,
      render: (rng) => {
        const [, name] = rng.pick(WIN_SERVICES);
        return {
          message: `The ${name} service terminated unexpectedly. It has done this ${rng.int(1, 3)} time(s). The following corrective action will be taken in 60000 milliseconds: Restart the service.`,
          data: { param1: name },
          user: null,
        };
      },
    },
    {
      source: 'Service Control Manager',
      eventId: 7040,
      level: 'information',
      category: 'system',
      task: 'None',
      weight: 2,
      render: (rng) => {
        const [, name] = rng.pick(WIN_SERVICES);
        return {
          message: `The start type of the ${name} service was changed from demand start to auto start.`,
          data: { param1: name },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'EventLog',
      eventId: 6013,
      level: 'information',
      category: 'system',
      task: 'None',
      weight: 2,
      render: (rng) => ({
        message: `The system uptime is ${rng.int(3600, 3_000_000)} seconds.`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'Microsoft-Windows-Kernel-Power',
      eventId: 41,
      level: 'critical',
      category: 'system',
      task: '(63)',
      weight: 0.3,
      render: () => ({
        message:
          'The system has rebooted without cleanly shutting down first. This error could be caused if the system stopped responding, crashed, or lost power unexpectedly.',
        data: { BugcheckCode: '0', SleepInProgress: '0' },
        user: SYSTEM_ACCOUNT,
      }),
    },
    {
      source: 'disk',
      eventId: 7,
      level: 'error',
      category: 'hardware',
      task: 'None',
      weight: 0.5,
      render: (rng) => ({
        message: `The device, \\Device\\Harddisk${rng.int(0, 1)}\\DR${rng.int(0, 1)}, has a bad block.`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'Microsoft-Windows-WHEA-Logger',
      eventId: 17,
      level: 'warning',
      category: 'hardware',
      task: 'None',
      weight: 0.7,
      render: (rng) => ({
        message: `A corrected hardware error has occurred.\n\nComponent: PCI Express Root Port\nError Source: Advanced Error Reporting (PCI Express)\n\nBus:Device:Function: 0x0:0x${rng.int(1, 29).toString(16)}:0x0\nVendor ID:Device ID: 0x8086:0x${rng.hex(4)}`,
        data: {},
        user: SYSTEM_ACCOUNT,
      }),
    },
    {
      source: 'Microsoft-Windows-DNS-Client',
      eventId: 1014,
      level: 'warning',
      category: 'system',
      task: '(1014)',
      weight: 3,
      render: (rng) => {
        const host = rng.pick(HOSTS);
        return {
          message: `Name resolution for the name ${host} timed out after none of the configured DNS servers responded.`,
          data: { QueryName: host },
          user: 'NT AUTHORITY\\NETWORK SERVICE',
        };
      },
    },
    {
      source: 'Microsoft-Windows-Time-Service',
      eventId: 129,
      level: 'warning',
      category: 'system',
      task: 'None',
      weight: 1,
      render: (rng) => ({
        message: `NtpClient was unable to set a domain peer to use as a time source because of discovery error. NtpClient will try again in ${rng.pick([15, 30, 60])} minutes and double the reattempt interval thereafter.`,
        data: {},
        user: 'NT AUTHORITY\\LOCAL SERVICE',
      }),
    },
    {
      source: 'Microsoft-Windows-WindowsUpdateClient',
      eventId: 19,
      level: 'information',
      category: 'system',
      task: 'Windows Update Agent',
      weight: 2,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `Installation Successful: Windows successfully installed the following update: ${rng.pick(['Security Intelligence Update for Microsoft Defender Antivirus', '2025-05 Cumulative Update for Windows', 'Windows Malicious Software Removal Tool x64'])} (${kb})`,
          data: { updateTitle: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'Microsoft-Windows-WindowsUpdateClient',
      eventId: 20,
      level: 'error',
      category: 'system',
      task: 'Windows Update Agent',
      weight: 0.6,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `Installation Failure: Windows failed to install the following update with error ${rng.pick(['0x800f0922', '0x80070002', '0x8024200B'])}: 2025-05 Cumulative Update for Windows (${kb}).`,
          data: { updateTitle: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Ntfs',
      eventId: 98,
      level: 'information',
      category: 'system',
      task: '(0)',
      weight: 2,
      render: () => ({
        message: 'Volume C: (\\Device\\HarddiskVolume3) is healthy.  No action is needed.',
        data: { DriveName: 'C:' },
        user: SYSTEM_ACCOUNT,
      }),
    },
  ],
  Security: [
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4624,
      level: 'information',
      category: 'security',
      task: 'Logon',
      weight: 14,
      render: (rng, id) => {
        const user = domainUser(rng, id);
        const type = rng.pick(['2', '3', '5', '7', '10', '11']);
        return {
          message: `An account was successfully logged on.\n\nSubject:\n\tSecurity ID:\t\tS-1-5-18\n\tAccount Name:\t\t${id.hostname}$\n\nLogon Information:\n\tLogon Type:\t\t${type}\n\nNew Logon:\n\tAccount Name:\t\t${user}\n\tLogon ID:\t\t${hexId(rng)}\n\nNetwork Information:\n\tSource Network Address:\t${type === '3' || type === '10' ? ip(rng) : '-'}`,
          data: { TargetUserName: user, LogonType: type },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4625,
      level: 'warning',
      category: 'security',
      task: 'Logon',
      weight: 3,
      auditFailure: true,
      render: (rng, id) => {
        const user = rng.chance(0.6)
          ? `${id.domain}\\${id.primaryUser}`
          : rng.pick(['administrator', 'admin', 'test', 'scanner']);
        return {
          message: `An account failed to log on.\n\nLogon Type:\t\t\t${rng.pick(['3', '10'])}\n\nAccount For Which Logon Failed:\n\tAccount Name:\t\t${user}\n\nFailure Information:\n\tFailure Reason:\t\tUnknown user name or bad password.\n\tStatus:\t\t\t0xC000006D\n\tSub Status:\t\t0xC000006A\n\nNetwork Information:\n\tSource Network Address:\t${ip(rng)}`,
          data: { TargetUserName: user, Status: '0xC000006D' },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4634,
      level: 'information',
      category: 'security',
      task: 'Logoff',
      weight: 8,
      render: (rng, id) => {
        const user = domainUser(rng, id);
        return {
          message: `An account was logged off.\n\nSubject:\n\tAccount Name:\t\t${user}\n\tLogon ID:\t\t${hexId(rng)}\n\nLogon Type:\t\t\t${rng.pick(['2', '3', '7'])}`,
          data: { TargetUserName: user },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4672,
      level: 'information',
      category: 'security',
      task: 'Special Logon',
      weight: 6,
      render: (rng, id) => ({
        message: `Special privileges assigned to new logon.\n\nSubject:\n\tAccount Name:\t\t${rng.chance(0.7) ? 'SYSTEM' : id.primaryUser}\n\nPrivileges:\t\tSeSecurityPrivilege\n\t\t\tSeBackupPrivilege\n\t\t\tSeRestorePrivilege\n\t\t\tSeDebugPrivilege`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4688,
      level: 'information',
      category: 'security',
      task: 'Process Creation',
      weight: 6,
      render: (rng, id) => {
        const exe = rng.pick([
          'powershell.exe',
          'cmd.exe',
          'msiexec.exe',
          'svchost.exe',
          'rundll32.exe',
          'gatehouse-agent.exe',
        ]);
        return {
          message: `A new process has been created.\n\nCreator Subject:\n\tAccount Name:\t\t${id.primaryUser}\n\nProcess Information:\n\tNew Process ID:\t\t${hexId(rng)}\n\tNew Process Name:\tC:\\Windows\\System32\\${exe}\n\tToken Elevation Type:\t%%193${rng.int(6, 8)}`,
          data: { NewProcessName: `C:\\Windows\\System32\\${exe}` },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4740,
      level: 'warning',
      category: 'security',
      task: 'User Account Management',
      weight: 0.4,
      render: (_rng, id) => ({
        message: `A user account was locked out.\n\nAccount That Was Locked Out:\n\tAccount Name:\t\t${id.primaryUser}\n\nAdditional Information:\n\tCaller Computer Name:\t${id.hostname}`,
        data: { TargetUserName: id.primaryUser },
        user: null,
      }),
    },
    {
      source: 'Microsoft-Windows-Security-Auditing',
      eventId: 4720,
      level: 'information',
      category: 'security',
      task: 'User Account Management',
      weight: 0.2,
      render: (rng) => {
        const user = `${rng.pick(['temp', 'svc', 'vendor'])}${rng.int(1, 99)}`;
        return {
          message: `A user account was created.\n\nNew Account:\n\tAccount Name:\t\t${user}`,
          data: { TargetUserName: user },
          user: null,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Eventlog',
      eventId: 1102,
      level: 'warning',
      category: 'security',
      task: 'Log clear',
      weight: 0.05,
      render: (_rng, id) => ({
        message: `The audit log was cleared.\nSubject:\n\tAccount Name:\t${id.primaryUser}\n\tDomain Name:\t${id.domain}`,
        data: {},
        user: null,
      }),
    },
  ],
  Setup: [
    {
      source: 'Microsoft-Windows-Servicing',
      eventId: 1,
      level: 'information',
      category: 'system',
      task: '(1)',
      weight: 3,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `Initiating changes for package ${kb}. Current state is Absent. Target state is Installed. Client id: WindowsUpdateAgent.`,
          data: { PackageIdentifier: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Servicing',
      eventId: 2,
      level: 'information',
      category: 'system',
      task: '(1)',
      weight: 3,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `Package ${kb} was successfully changed to the Installed state.`,
          data: { PackageIdentifier: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Servicing',
      eventId: 4,
      level: 'information',
      category: 'system',
      task: '(1)',
      weight: 1,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `A reboot is necessary before package ${kb} can be changed to the Installed state.`,
          data: { PackageIdentifier: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
    {
      source: 'Microsoft-Windows-Servicing',
      eventId: 3,
      level: 'error',
      category: 'system',
      task: '(1)',
      weight: 0.3,
      render: (rng) => {
        const kb = rng.pick(KBS);
        return {
          message: `Package ${kb} failed to be changed to the Installed state. Status: 0x800f0922.`,
          data: { PackageIdentifier: kb },
          user: SYSTEM_ACCOUNT,
        };
      },
    },
  ],
};

// Linux has no event ids; each syslog message pattern gets a stable number so eventId filters still work.
const LINUX: Record<LogName, EventTemplate[]> = {
  Application: [
    {
      source: 'dockerd',
      eventId: 3001,
      level: 'information',
      category: 'application',
      task: 'daemon',
      weight: 4,
      render: (rng) => ({
        message: `time="${new Date(Date.UTC(2025, 4, rng.int(1, 28))).toISOString()}" level=info msg="ignoring event" container=${rng.hex(12)} module=libcontainerd namespace=moby topic=/tasks/delete type="*events.TaskDelete"`,
        data: {},
        user: 'root',
      }),
    },
    {
      source: 'nginx',
      eventId: 3002,
      level: 'error',
      category: 'application',
      task: 'daemon',
      weight: 2,
      render: (rng) => ({
        message: `[error] ${pid(rng)}#0: *${rng.int(1, 90000)} connect() failed (111: Connection refused) while connecting to upstream, client: ${ip(rng)}, server: _, request: "GET /api/health HTTP/1.1", upstream: "http://127.0.0.1:8080/api/health"`,
        data: {},
        user: 'www-data',
      }),
    },
    {
      source: 'python3',
      eventId: 3003,
      level: 'warning',
      category: 'application',
      task: 'user',
      weight: 2,
      render: (rng) => ({
        message: `backup.py[${pid(rng)}]: WARNING retrying upload to backup-nas (attempt ${rng.int(2, 5)} of 5)`,
        data: {},
        user: 'backup',
      }),
    },
    {
      source: 'gnome-shell',
      eventId: 3004,
      level: 'information',
      category: 'application',
      task: 'user',
      weight: 3,
      render: (_rng, id) => ({
        message:
          'Window manager warning: Buggy client sent a _NET_ACTIVE_WINDOW message with a timestamp of 0',
        data: {},
        user: id.primaryUser,
      }),
    },
  ],
  System: [
    {
      source: 'systemd',
      eventId: 1001,
      level: 'information',
      category: 'system',
      task: 'daemon',
      weight: 12,
      render: (rng) => {
        const unit = rng.pick(LINUX_UNITS);
        return {
          message: `${rng.pick(['Started', 'Stopped', 'Reloaded'])} ${unit}.`,
          data: { UNIT: unit },
          user: 'root',
        };
      },
    },
    {
      source: 'systemd',
      eventId: 1002,
      level: 'error',
      category: 'system',
      task: 'daemon',
      weight: 1,
      render: (rng) => {
        const unit = rng.pick(LINUX_UNITS);
        return {
          message: `${unit}: Main process exited, code=exited, status=${rng.int(1, 3)}/FAILURE`,
          data: { UNIT: unit },
          user: 'root',
        };
      },
    },
    {
      source: 'kernel',
      eventId: 1003,
      level: 'warning',
      category: 'hardware',
      task: 'kern',
      weight: 1,
      render: (rng) => ({
        message: `nvme nvme0: I/O ${rng.int(1, 900)} QID ${rng.int(1, 8)} timeout, completion polled`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'kernel',
      eventId: 1004,
      level: 'critical',
      category: 'system',
      task: 'kern',
      weight: 0.2,
      render: (rng) => ({
        message: `Out of memory: Killed process ${pid(rng)} (${rng.pick(['java', 'node', 'python3', 'chrome'])}) total-vm:${rng.int(2, 9)}048576kB, anon-rss:${rng.int(1, 4)}024000kB`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'smartd',
      eventId: 1005,
      level: 'error',
      category: 'hardware',
      task: 'daemon',
      weight: 0.4,
      render: (rng) => ({
        message: `Device: /dev/sda [SAT], ${rng.int(1, 24)} Currently unreadable (pending) sectors`,
        data: {},
        user: 'root',
      }),
    },
    {
      source: 'NetworkManager',
      eventId: 1006,
      level: 'information',
      category: 'system',
      task: 'daemon',
      weight: 3,
      render: (rng) => ({
        message: `<info>  [${rng.int(1_700_000_000, 1_750_000_000)}.${rng.int(1000, 9999)}] dhcp4 (eno1): state changed new lease, address=${ip(rng)}`,
        data: {},
        user: 'root',
      }),
    },
    {
      source: 'CRON',
      eventId: 1007,
      level: 'information',
      category: 'system',
      task: 'cron',
      weight: 5,
      render: (rng) => ({
        message: `(root) CMD (${rng.pick(['test -x /usr/sbin/anacron || run-parts --report /etc/cron.daily', '/usr/local/bin/backup.sh', 'command -v debian-sa1 > /dev/null && debian-sa1 1 1'])})`,
        data: {},
        user: 'root',
      }),
    },
  ],
  Security: [
    {
      source: 'sshd',
      eventId: 2001,
      level: 'information',
      category: 'security',
      task: 'auth',
      weight: 6,
      render: (rng, id) => ({
        message: `Accepted publickey for ${id.primaryUser} from ${ip(rng)} port ${rng.int(40000, 65000)} ssh2: ED25519 SHA256:${rng.hex(43)}`,
        data: {},
        user: id.primaryUser,
      }),
    },
    {
      source: 'sshd',
      eventId: 2002,
      level: 'warning',
      category: 'security',
      task: 'auth',
      weight: 4,
      render: (rng) => ({
        message: `Failed password for invalid user ${rng.pick(['admin', 'oracle', 'test', 'ubuntu', 'pi'])} from ${ip(rng)} port ${rng.int(40000, 65000)} ssh2`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'sudo',
      eventId: 2003,
      level: 'information',
      category: 'security',
      task: 'authpriv',
      weight: 5,
      render: (rng, id) => ({
        message: `${id.primaryUser} : TTY=pts/${rng.int(0, 4)} ; PWD=/home/${id.primaryUser} ; USER=root ; COMMAND=/usr/bin/${rng.pick(['apt update', 'systemctl restart nginx', 'journalctl -xe', 'docker ps'])}`,
        data: {},
        user: id.primaryUser,
      }),
    },
    {
      source: 'pam_unix',
      eventId: 2004,
      level: 'information',
      category: 'security',
      task: 'authpriv',
      weight: 6,
      render: (_rng, id) => ({
        message: `pam_unix(sshd:session): session opened for user ${id.primaryUser}(uid=1000) by (uid=0)`,
        data: {},
        user: id.primaryUser,
      }),
    },
  ],
  Setup: [
    {
      source: 'unattended-upgrades',
      eventId: 4001,
      level: 'information',
      category: 'system',
      task: 'apt',
      weight: 3,
      render: (rng) => ({
        message: `Packages that will be upgraded: ${rng.sample(['libssl3t64', 'openssl', 'linux-firmware', 'libc6', 'curl', 'systemd', 'tzdata'], rng.int(1, 4)).join(' ')}`,
        data: {},
        user: 'root',
      }),
    },
    {
      source: 'dpkg',
      eventId: 4002,
      level: 'information',
      category: 'system',
      task: 'apt',
      weight: 4,
      render: (rng) => {
        const pkg = rng.pick([
          'openssl',
          'curl',
          'tzdata',
          'libc6',
          'systemd',
          'linux-image-6.8.0-60-generic',
        ]);
        return {
          message: `status installed ${pkg}:amd64 ${rng.int(1, 3)}.${rng.int(0, 20)}-${rng.int(1, 9)}ubuntu0.${rng.int(1, 5)}`,
          data: {},
          user: 'root',
        };
      },
    },
    {
      source: 'apt',
      eventId: 4003,
      level: 'error',
      category: 'system',
      task: 'apt',
      weight: 0.4,
      render: () => ({
        message:
          'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4411 (unattended-upgr)',
        data: {},
        user: 'root',
      }),
    },
  ],
};

const MACOS: Record<LogName, EventTemplate[]> = {
  Application: [
    {
      source: 'com.apple.ReportCrash',
      eventId: 5001,
      level: 'error',
      category: 'application',
      task: 'crash',
      weight: 2,
      render: (rng) => {
        const app = rng.pick(MAC_APPS);
        return {
          message: `Saved crash report for ${app}[${pid(rng)}] version ${rng.int(1, 120)}.${rng.int(0, 9)} to ${app}-2025-05-${rng.int(10, 28)}.ips`,
          data: {},
          user: null,
        };
      },
    },
    {
      source: 'com.apple.runningboard',
      eventId: 5002,
      level: 'information',
      category: 'application',
      task: 'process',
      weight: 8,
      render: (rng) => ({
        message: `[app<application.${rng.pick(['com.microsoft.Outlook', 'com.tinyspeck.slackmacgap', 'us.zoom.xos', 'com.google.Chrome'])}>:${pid(rng)}] Now tracking process`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'com.apple.TCC',
      eventId: 5003,
      level: 'warning',
      category: 'application',
      task: 'access',
      weight: 2,
      render: (rng) => ({
        message: `Refusing authorization request for service kTCCService${rng.pick(['ScreenCapture', 'Camera', 'Microphone', 'SystemPolicyAllFiles'])} and subject Sub:{${rng.pick(['us.zoom.xos', 'com.microsoft.teams2', 'com.anydesk.anydeskmacos'])}}`,
        data: {},
        user: null,
      }),
    },
  ],
  System: [
    {
      source: 'com.apple.xpc.launchd',
      eventId: 6001,
      level: 'information',
      category: 'system',
      task: 'daemon',
      weight: 10,
      render: (rng) => ({
        message: `Service "${rng.pick(['com.apple.mdworker.shared', 'com.apple.softwareupdated', 'com.gatehouse.agent', 'com.apple.backupd'])}" exited with status ${rng.pick([0, 0, 0, 1, 78])}`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'kernel',
      eventId: 6002,
      level: 'warning',
      category: 'hardware',
      task: 'kern',
      weight: 1,
      render: (rng) => ({
        message: `AppleThunderboltNHIType${rng.int(2, 4)}::prePCIWake - power up complete - took ${rng.int(1, 900)} us`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'com.apple.powerd',
      eventId: 6003,
      level: 'information',
      category: 'system',
      task: 'power',
      weight: 4,
      render: (rng) => ({
        message: `${rng.pick(['Wake from Deep Idle', "Entering Sleep state due to 'Idle Sleep'", 'DarkWake from Deep Idle'])} [CDNVA] : due to ${rng.pick(['SMC.OutboxNotEmpty', 'RTC/Maintenance', 'UserActivity'])}`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'com.apple.diskmanagement',
      eventId: 6004,
      level: 'error',
      category: 'hardware',
      task: 'disk',
      weight: 0.3,
      render: () => ({
        message: "Disk disk2s1 failed to mount: -69842 (Couldn't mount disk)",
        data: {},
        user: null,
      }),
    },
  ],
  Security: [
    {
      source: 'com.apple.loginwindow',
      eventId: 7001,
      level: 'information',
      category: 'security',
      task: 'login',
      weight: 6,
      render: (_rng, id) => ({
        message: `-[SessionAgentNotificationCenter] user ${id.primaryUser} logged in`,
        data: {},
        user: id.primaryUser,
      }),
    },
    {
      source: 'com.apple.opendirectoryd',
      eventId: 7002,
      level: 'warning',
      category: 'security',
      task: 'auth',
      weight: 2,
      render: (_rng, id) => ({
        message: `Authentication failed for user '${id.primaryUser}': invalid credentials`,
        data: {},
        user: id.primaryUser,
      }),
    },
    {
      source: 'com.apple.securityd',
      eventId: 7003,
      level: 'information',
      category: 'security',
      task: 'keychain',
      weight: 5,
      render: (rng) => ({
        message: `SecKeychainUnlock: unlocked keychain login.keychain-db for ${rng.pick(['securityd', 'Safari', 'Mail'])}`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'com.apple.sudo',
      eventId: 7004,
      level: 'information',
      category: 'security',
      task: 'authpriv',
      weight: 2,
      render: (_rng, id) => ({
        message: `${id.primaryUser} : TTY=ttys000 ; PWD=/Users/${id.primaryUser} ; USER=root ; COMMAND=/usr/sbin/softwareupdate -l`,
        data: {},
        user: id.primaryUser,
      }),
    },
  ],
  Setup: [
    {
      source: 'com.apple.install',
      eventId: 8001,
      level: 'information',
      category: 'system',
      task: 'install',
      weight: 3,
      render: (rng) => ({
        message: `PackageKit: Installed "${rng.pick(['XProtectPlistConfigData', 'MRTConfigData', 'Microsoft AutoUpdate', 'Gatehouse Agent'])}" (${rng.int(1, 5200)})`,
        data: {},
        user: 'root',
      }),
    },
    {
      source: 'com.apple.SoftwareUpdate',
      eventId: 8002,
      level: 'information',
      category: 'system',
      task: 'update',
      weight: 3,
      render: (rng) => ({
        message: `SUOSUServiceDaemon: Found ${rng.int(0, 3)} available update(s)`,
        data: {},
        user: null,
      }),
    },
    {
      source: 'com.apple.SoftwareUpdate',
      eventId: 8003,
      level: 'error',
      category: 'system',
      task: 'update',
      weight: 0.3,
      render: () => ({
        message:
          'SUOSUServiceDaemon: Failed to download macOS Sequoia 15.5: The network connection was lost.',
        data: {},
        user: null,
      }),
    },
  ],
};

export function catalogFor(osType: OsType): Record<LogName, EventTemplate[]> {
  return osType === 'windows' ? WINDOWS : osType === 'macos' ? MACOS : LINUX;
}

/** Event Viewer's numeric level for the raw XML. Security audits are level 0 with an audit keyword. */
export function xmlLevel(template: EventTemplate): number {
  if (template.source === 'Microsoft-Windows-Security-Auditing') return 0;
  return { critical: 1, error: 2, warning: 3, information: 4, verbose: 5 }[template.level];
}
