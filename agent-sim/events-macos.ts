import type { EventTemplate, LogName } from './event-template';
import { MAC_APPS, pid } from './event-words';

// macOS log templates: unified-log subsystems and processes.

export const MACOS: Record<LogName, EventTemplate[]> = {
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
