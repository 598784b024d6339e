import type { EventTemplate, LogName } from './event-template';
import { KBS, ip, hexId, domainUser, SYSTEM_ACCOUNT } from './event-words';

// Windows Security (audit) and Setup (servicing) log templates.

export const WINDOWS_SECURITY_AND_SETUP: Pick<Record<LogName, EventTemplate[]>, 'Security' | 'Setup'> = {
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
