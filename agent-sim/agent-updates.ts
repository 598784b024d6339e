import type { CommandOutcome } from './handle';
import type { AgentLog, FleetCounters } from './agent-options';
import type { UpgradeOffer } from './protocol';
import type { SavedAgent } from './state';
import type { AgentHttp } from './transport';
import { compareVersions, downloadVerified, RefusedOffers } from './updater';

// The agent updating itself (spec 3): an offer in a heartbeat answer when auto-update is on, or a `dev_update`
// command. A build is adopted only when its checksum verifies; a refused build is not tried again for a long
// while, a download that failed in transit for a short one.

export type UpdateHow = 'auto-update' | 'dev_update';

export interface UpdateHost {
  readonly http: AgentHttp;
  readonly counters: FleetCounters;
  runSignal(): AbortSignal | null;
  credentials(): SavedAgent | null;
  version(): string;
  log: AgentLog;
  /** Refusals are errors worth reporting at once. */
  flushDiagnostics(): void;
  onRefused(version: string, reason: string): void;
  /** Switch to the verified build and restart; dev_update also turns auto-update off. */
  adopt(version: string, how: UpdateHow, autoUpdate: boolean): void;
}

export class AgentUpdater {
  private updating = false;
  private readonly refusedOffers = new RefusedOffers();
  private readonly failedDownloads = new RefusedOffers(30_000, 30 * 60_000);
  private announcedVersion: string | null = null;

  constructor(private readonly host: UpdateHost) {}

  async consider(offer: UpgradeOffer): Promise<void> {
    const { host } = this;
    const saved = host.credentials();
    const current = host.version();
    if (this.updating || !saved) return;
    if (compareVersions(offer.version, current) <= 0) return;
    if (!saved.autoUpdate) {
      // Spec 3: with auto_update off the agent only notes that a newer version exists.
      if (this.announcedVersion !== offer.version) {
        this.announcedVersion = offer.version;
        host.log(
          'info',
          'updater',
          `agent ${offer.version} is available; auto-update is off, staying on ${current}`,
        );
      }
      return;
    }
    if (
      this.refusedOffers.blocked(offer.version, offer.checksum) ||
      this.failedDownloads.blocked(offer.version, offer.checksum)
    )
      return;
    this.updating = true;
    try {
      host.log('info', 'updater', `downloading agent ${offer.version}`, { from: current });
      const download = await downloadVerified(
        host.http,
        offer.downloadUrl,
        offer.checksum,
        saved.authToken,
        host.runSignal() ?? undefined,
      );
      if (host.runSignal() === null) return;
      if (!download.ok) {
        if (download.reason === 'download_failed') {
          const waitMs = this.failedDownloads.refuse(offer.version, offer.checksum);
          host.log('warn', 'updater', `update to ${offer.version} postponed: ${download.message}`, {
            version: offer.version,
            retryInSeconds: Math.round(waitMs / 1000),
          });
          return;
        }
        const waitMs = this.refusedOffers.refuse(offer.version, offer.checksum);
        host.counters.updateRefusals++;
        host.log(
          'error',
          'updater',
          `update to ${offer.version} refused: ${download.message}; keeping ${host.version()}`,
          {
            version: offer.version,
            reason: download.reason,
            expectedChecksum: offer.checksum,
            actualChecksum: download.actual ?? null,
            retryInMinutes: Math.round(waitMs / 60_000),
          },
        );
        host.flushDiagnostics();
        host.onRefused(offer.version, download.reason);
        return;
      }
      host.adopt(offer.version, 'auto-update', true);
    } finally {
      this.updating = false;
    }
  }

  async devUpdate(downloadUrl: string, checksum: string): Promise<CommandOutcome> {
    const { host } = this;
    const saved = host.credentials();
    if (!saved) return { status: 'failed', error: 'agent is not enrolled' };
    if (this.updating) return { status: 'failed', error: 'an update is already in progress' };
    this.updating = true;
    try {
      const download = await downloadVerified(
        host.http,
        downloadUrl,
        checksum,
        saved.authToken,
        host.runSignal() ?? undefined,
      );
      if (!download.ok) {
        host.counters.updateRefusals++;
        host.log('error', 'updater', `dev_update refused: ${download.message}; keeping ${host.version()}`, {
          reason: download.reason,
          expectedChecksum: checksum,
          actualChecksum: download.actual ?? null,
        });
        host.flushDiagnostics();
        return { status: 'failed', error: download.message };
      }
      // The payload names no version: the build says which one it is (see versionOfDownload).
      const version = download.version ?? `${host.version()}-dev.${download.checksum.slice(0, 8)}`;
      return {
        status: 'completed',
        result: { version, checksum: download.checksum, autoUpdate: false },
        after: () => host.adopt(version, 'dev_update', false),
      };
    } finally {
      this.updating = false;
    }
  }
}
