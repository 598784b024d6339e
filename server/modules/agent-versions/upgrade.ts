import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform, Architecture, OsType } from '../../contract';

// What a heartbeat offers an agent (spec 3, Versioning): the latest registered version for its platform and
// architecture, only when it is newer than what the agent runs. Never a downgrade.

/** Devices speak `windows|macos|linux` and `x64|x86|arm64`; the version registry speaks the download words. */
export function platformOf(osType: OsType): AgentPlatform {
  return osType === 'macos' ? 'darwin' : osType;
}

/** x86 agents have no build of their own in the registry; they are offered nothing. */
export function archOf(architecture: Architecture): AgentArch | null {
  if (architecture === 'x64') return 'amd64';
  if (architecture === 'arm64') return 'arm64';
  return null;
}

/**
 * Compares dotted versions numerically (`1.10.0` > `1.9.3`); a pre-release (`1.2.0-rc.1`) sorts before its
 * release. Returns a negative number, zero or a positive number like a sort comparator.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.replace(/^v/, '').split('-', 2);
  const [coreB = '', preB] = b.replace(/^v/, '').split('-', 2);
  const partsA = coreA.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const partsB = coreB.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const diff = (partsA[i] ?? 0) - (partsB[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

export interface UpgradeOffer {
  version: string;
  downloadUrl: string;
  checksum: string;
}

interface LatestRow {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  download_url: string | null;
  file_path: string | null;
  checksum: string;
}

/** The download address an agent is given: our own endpoint when we hold the binary, else the registered URL. */
export function agentDownloadUrl(
  ctx: Pick<AppContext, 'publicOrigin'>,
  row: Pick<LatestRow, 'version' | 'platform' | 'architecture' | 'download_url' | 'file_path'>,
): string {
  if (row.file_path || !row.download_url) {
    const query = new URLSearchParams({ platform: row.platform, arch: row.architecture });
    return `${ctx.publicOrigin}/api/v1/agent-versions/${encodeURIComponent(row.version)}/download?${query}`;
  }
  return row.download_url;
}

export function upgradeFor(
  ctx: Pick<AppContext, 'db' | 'publicOrigin'>,
  device: { osType: OsType; architecture: Architecture; agentVersion: string },
): UpgradeOffer | null {
  const arch = archOf(device.architecture);
  if (!arch) return null;
  const latest = ctx.db
    .prepare(
      `SELECT version, platform, architecture, download_url, file_path, checksum FROM agent_versions
       WHERE platform = ? AND architecture = ? AND is_latest = 1`,
    )
    .get(platformOf(device.osType), arch) as LatestRow | undefined;
  if (!latest || compareVersions(latest.version, device.agentVersion) <= 0) return null;
  return { version: latest.version, downloadUrl: agentDownloadUrl(ctx, latest), checksum: latest.checksum };
}
