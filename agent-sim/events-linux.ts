import type { EventTemplate, LogName } from './event-template';
import { LINUX_UNITS, ip, pid } from './event-words';

// Linux log templates: syslog-style programs and systemd units.

// Linux has no event ids; each syslog message pattern gets a stable number so eventId filters still work.
export const LINUX: Record<LogName, EventTemplate[]> = {
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
