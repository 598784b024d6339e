import type { EventTemplate, LogName } from './event-template';
import { APPS, WIN_SERVICES, KBS, HOSTS, hexId, SYSTEM_ACCOUNT } from './event-words';
import { WINDOWS_SECURITY_AND_SETUP } from './events-windows-security';

// Windows Application and System log templates, with the Security and Setup ones (events-windows-security.ts):
// Event Viewer sources and ids as a technician would find them.

export const WINDOWS: Record<LogName, EventTemplate[]> = {
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
  ...WINDOWS_SECURITY_AND_SETUP,
};
