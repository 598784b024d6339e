import type { AgentIdentity } from './identity';
import type { DiagnosticLog, HeartbeatRequest, PostureStatus, SoftwareItem } from './protocol';
import { Rng } from './random';

// The live state a simulated machine reports: metrics that drift, who is signed in, uptime, a pending reboot now
// and then, third-party management agents (spec 3 management posture), installed software, and the agent's own
// diagnostic chatter. All of it comes from seeded generators, so seed N always behaves the same way.

/** The twelve remote-management products the agent fingerprints (spec 3, Management posture). */
export const RMM_PRODUCTS = [
  'ConnectWise Automate',
  'NinjaOne',
  'Datto RMM',
  'N-able N-central',
  'Kaseya VSA',
  'Atera',
  'TeamViewer',
  'AnyDesk',
  'Splashtop',
  'ScreenConnect',
  'SyncroMSP',
  'Pulseway',
] as const;

const WINDOWS_SOFTWARE: Array<[string, string, string]> = [
  ['Microsoft 365 Apps for business - en-us', '16.0.18730.20186', 'Microsoft Corporation'],
  ['Microsoft Edge', '136.0.3240.64', 'Microsoft Corporation'],
  ['Microsoft Edge WebView2 Runtime', '136.0.3240.64', 'Microsoft Corporation'],
  ['Microsoft Visual C++ 2015-2022 Redistributable (x64)', '14.42.34433', 'Microsoft Corporation'],
  ['Microsoft Teams', '25122.1415.3698.6812', 'Microsoft Corporation'],
  ['Google Chrome', '136.0.7103.114', 'Google LLC'],
  ['Adobe Acrobat (64-bit)', '25.001.20474', 'Adobe'],
  ['7-Zip 24.09 (x64)', '24.09', 'Igor Pavlov'],
  ['Zoom Workplace (64-bit)', '6.4.10', 'Zoom Video Communications, Inc.'],
  ['Mozilla Firefox (x64 en-US)', '138.0.4', 'Mozilla'],
  ['Notepad++ (64-bit x64)', '8.8.1', 'Notepad++ Team'],
  ['VLC media player', '3.0.21', 'VideoLAN'],
  ['Dentrix G7', '7.4.112', 'Henry Schein One'],
  ['QuickBooks Desktop Pro 2024', '34.0.4002.3403', 'Intuit Inc.'],
  ['PuTTY release 0.83 (64-bit)', '0.83.0.0', 'Simon Tatham'],
  ['Java 8 Update 451 (64-bit)', '8.0.4510.10', 'Oracle Corporation'],
  ['Veeam Agent for Microsoft Windows', '6.3.1.1074', 'Veeam Software Group GmbH'],
  ['SQL Server 2019 Express LocalDB', '15.0.4382.1', 'Microsoft Corporation'],
];
const MAC_SOFTWARE: Array<[string, string, string]> = [
  ['Microsoft Outlook', '16.97', 'Microsoft Corporation'],
  ['Microsoft Word', '16.97', 'Microsoft Corporation'],
  ['Google Chrome', '136.0.7103.114', 'Google LLC'],
  ['Slack', '4.43.51', 'Slack Technologies, LLC'],
  ['zoom.us', '6.4.10', 'Zoom Video Communications, Inc.'],
  ['1Password', '8.10.76', 'AgileBits Inc.'],
  ['Visual Studio Code', '1.100.2', 'Microsoft Corporation'],
  ['Docker Desktop', '4.41.2', 'Docker Inc.'],
  ['Firefox', '138.0.4', 'Mozilla'],
  ['iTerm2', '3.5.14', 'George Nachman'],
];
const LINUX_SOFTWARE: Array<[string, string, string]> = [
  ['openssh-server', '1:9.6p1-3ubuntu13.11', 'Ubuntu Developers'],
  ['openssl', '3.0.13-0ubuntu3.5', 'Ubuntu Developers'],
  ['curl', '8.5.0-2ubuntu10.6', 'Ubuntu Developers'],
  ['docker-ce', '5:28.1.1-1~ubuntu.24.04~noble', 'Docker Inc.'],
  ['nginx', '1.24.0-2ubuntu7.3', 'Ubuntu Developers'],
  ['python3', '3.12.3-0ubuntu2', 'Ubuntu Developers'],
  ['git', '1:2.43.0-1ubuntu7.2', 'Ubuntu Developers'],
  ['firefox', '1:1snap1-0ubuntu5', 'Ubuntu Developers'],
  ['postgresql-16', '16.9-0ubuntu0.24.04.1', 'Ubuntu Developers'],
  ['cups', '2.4.7-1.2ubuntu7.3', 'Ubuntu Developers'],
];

const CHATTER: Array<{ level: DiagnosticLog['level']; component: string; message: string; weight: number }> =
  [
    { level: 'debug', component: 'heartbeat', message: 'heartbeat sent', weight: 10 },
    { level: 'debug', component: 'collector', message: 'collected system metrics', weight: 8 },
    { level: 'info', component: 'inventory', message: 'software inventory unchanged', weight: 3 },
    { level: 'info', component: 'eventlog', message: 'event log watcher caught up', weight: 3 },
    { level: 'info', component: 'service', message: 'configuration reloaded', weight: 1 },
    { level: 'warn', component: 'collector', message: 'WMI query took longer than expected', weight: 2 },
    { level: 'warn', component: 'eventlog', message: 'event log channel is nearly full', weight: 1 },
    {
      level: 'warn',
      component: 'network',
      message: 'DNS lookup for the server took longer than 2 s',
      weight: 1,
    },
    {
      level: 'error',
      component: 'collector',
      message: 'disk health query failed: access denied',
      weight: 0.5,
    },
    {
      level: 'error',
      component: 'inventory',
      message: 'could not read an uninstall registry key',
      weight: 0.3,
    },
  ];

type Metrics = NonNullable<HeartbeatRequest['metrics']>;

export class Machine {
  private readonly rng: Rng;
  private readonly chatterRng: Rng;
  private metricsNow: Metrics;
  private readonly volatility: number;
  private readonly bootedAt: number;
  private pendingReboot: boolean;
  private readonly postureList: Array<{ product: string; status: PostureStatus }> | undefined;

  constructor(
    readonly identity: AgentIdentity,
    private readonly seed: number,
    private readonly index: number,
    options: { metricVolatility?: number } = {},
  ) {
    this.rng = Rng.of(seed, index, 'machine');
    this.chatterRng = Rng.of(seed, index, 'chatter');
    this.volatility = options.metricVolatility ?? 1;
    const server = identity.deviceRole === 'server';
    this.metricsNow = {
      cpuPercent: this.rng.float(3, server ? 45 : 30),
      ramPercent: this.rng.float(30, 75),
      diskPercent: this.rng.float(20, 88),
    };
    // Up since somewhere between an hour and five weeks ago (servers stay up longer).
    this.bootedAt = Date.now() - this.rng.int(3_600, server ? 3_000_000 : 900_000) * 1000;
    this.pendingReboot = identity.osType !== 'macos' && this.rng.chance(0.15);
    // About one machine in ten runs an agent build without the posture scanner: never scanned (spec 3).
    if (this.rng.chance(0.1)) this.postureList = undefined;
    else {
      const count = this.rng.weighted([
        [0, 5],
        [1, 4],
        [2, 2],
        [3, 0.5],
      ] as const);
      this.postureList = this.rng.sample(RMM_PRODUCTS, count).map((product) => ({
        product,
        status: this.rng.weighted([
          ['running', 6],
          ['installed', 2.5],
          ['stopped', 1.5],
        ] as const),
      }));
    }
  }

  /** One step of the walk: each metric moves a little, stays within 0-100, and CPU spikes now and then. */
  tick(): Metrics {
    const step = (value: number, size: number, floor: number, ceiling: number) =>
      Math.min(ceiling, Math.max(floor, value + this.rng.float(-size, size) * this.volatility));
    const m = this.metricsNow;
    let cpu = step(m.cpuPercent, 8, 0.5, 100);
    if (this.rng.chance(0.03 * this.volatility)) cpu = this.rng.float(85, 100);
    else if (cpu > 80) cpu -= this.rng.float(10, 30); // spikes decay
    this.metricsNow = {
      cpuPercent: round1(Math.max(0.5, cpu)),
      ramPercent: round1(step(m.ramPercent, 3, 8, 99)),
      // Disks fill slowly and are cleaned up now and then.
      diskPercent: round1(
        this.rng.chance(0.005) ? Math.max(15, m.diskPercent - 15) : step(m.diskPercent + 0.02, 0.15, 5, 99.5),
      ),
    };
    // A pending reboot appears after patching and clears after a (simulated) restart.
    if (!this.pendingReboot && this.identity.osType !== 'macos' && this.rng.chance(0.002))
      this.pendingReboot = true;
    return this.metricsNow;
  }

  get metrics(): Metrics {
    return this.metricsNow;
  }

  uptimeSeconds(now = Date.now()): number {
    return Math.floor((now - this.bootedAt) / 1000);
  }

  get rebootRequired(): boolean {
    return this.pendingReboot;
  }

  /** Who is signed in: workstations mostly their owner, sometimes nobody; servers an administrator now and then. */
  lastUser(): string | null {
    const { identity } = this;
    if (identity.deviceRole === 'server')
      return this.rng.chance(0.3) ? `${identity.domain}\\Administrator` : null;
    if (this.rng.chance(0.08)) return null;
    return identity.osType === 'windows'
      ? `${identity.domain}\\${identity.primaryUser}`
      : identity.primaryUser;
  }

  /** The agent's own verdict: warning on a nearly full disk or a pegged CPU, error on a full disk. */
  health(): HeartbeatRequest['status'] {
    const m = this.metricsNow;
    if (m.diskPercent >= 98) return 'error';
    if (m.diskPercent >= 92 || m.cpuPercent >= 97 || m.ramPercent >= 97) return 'warning';
    return 'ok';
  }

  posture(): Array<{ product: string; status: PostureStatus }> | undefined {
    return this.postureList?.map((p) => ({ ...p }));
  }

  software(): SoftwareItem[] {
    const rng = Rng.of(this.seed, this.index, 'software');
    const catalog =
      this.identity.osType === 'windows'
        ? WINDOWS_SOFTWARE
        : this.identity.osType === 'macos'
          ? MAC_SOFTWARE
          : LINUX_SOFTWARE;
    const base = catalog.slice(0, 4);
    const extras = rng.sample(catalog.slice(4), rng.int(2, Math.max(2, catalog.length - 4)));
    const rmm = (this.postureList ?? []).map((p): [string, string, string] => [
      p.product,
      `${rng.int(5, 24)}.${rng.int(0, 9)}.${rng.int(0, 999)}`,
      p.product,
    ]);
    return [...base, ...extras, ...rmm]
      .map(([name, version, publisher]) => ({ name, version, publisher }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** `count` lines of routine agent chatter (spec 2 diagnostic log entries). */
  chatter(count: number, agentVersion: string, now = Date.now()): DiagnosticLog[] {
    return Array.from({ length: count }, (_, i) => {
      const line = this.chatterRng.weighted(CHATTER.map((c) => [c, c.weight] as const));
      return {
        timestamp: new Date(now - (count - 1 - i) * 250).toISOString(),
        level: line.level,
        component: line.component,
        message: line.message,
        fields: line.component === 'collector' ? { ...this.metricsNow } : {},
        agentVersion,
      };
    });
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;
