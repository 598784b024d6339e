// Agent versions and management posture (spec document 3).

import type { Pagination } from './common';

export type AgentPlatform = 'windows' | 'darwin' | 'linux';
export type AgentArch = 'amd64' | 'arm64';

/** One registered build: `GET /agent-versions/latest`, `POST /agent-versions` and the rows of the list. */
export interface AgentVersion {
  id: string;
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  /** Where an agent fetches it: this server's download endpoint when the binary is held here, else the registered URL. */
  downloadUrl: string;
  /** SHA-256 of the binary, 64 lowercase hex characters. */
  checksum: string;
  sizeBytes: number | null;
  source: 'scan' | 'manual' | 'github';
  releaseNotes: string | null;
  /** The newest version of its platform and architecture: what heartbeats offer as `upgradeTo`. */
  isLatest: boolean;
  /**
   * The version's staged rollout: the share (0-100) of eligible devices a heartbeat offers it to, chosen stably
   * per device; 100 unless a platform administrator set it, 0 while paused.
   */
  rolloutPercent: number;
  createdAt: string;
}

/** `PUT /agent-versions/:version/rollout`: the version's rollout as it now stands. */
export interface AgentVersionRollout {
  version: string;
  rolloutPercent: number;
}

/** `GET /agent-versions`: every registered build, newest version first. */
export interface AgentVersionList {
  data: AgentVersion[];
}

/** `POST /agent-versions/sync-github`: the release read from the feed and what it added. */
export interface AgentVersionSyncResult {
  version: string;
  /** Builds registered by this sync. */
  registered: AgentVersion[];
  /** Builds of the release that were already registered with the same checksum. */
  unchanged: number;
}

// Management posture (spec 3).

export interface PostureProductCount {
  product: string;
  status: string;
  deviceCount: number;
}

export interface PostureSummary {
  data: {
    /** Organizations with devices in scope, by name; `products` is empty when none reported a product. */
    orgs: Array<{ orgId: string; orgName: string; products: PostureProductCount[] }>;
    totals: { neverScanned: number; stale: number };
    /** The staleness window the totals were counted with. */
    stalenessDays: number;
  };
}

export interface PostureDevice {
  id: string;
  hostname: string;
  orgId: string;
  siteId: string | null;
  /** The product's posture status on this device (as the agent reported it). */
  status: string;
  /** The device's own connectivity status (online, offline, ...). */
  deviceStatus: string;
  postureReportedAt: string | null;
}

export interface PostureDevices {
  data: { devices: PostureDevice[] };
  pagination: Pagination;
}
