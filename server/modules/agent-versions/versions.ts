import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform, Architecture, OsType } from '../../contract';

// The words of the version registry: how device platforms and architectures map onto build names, how versions
// compare, and where an agent downloads a build.

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

/** The columns of a registered build that say where it is downloaded from. */
export interface BuildLocation {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  download_url: string | null;
  file_path: string | null;
}

/** The download address an agent is given: our own endpoint when we hold the binary, else the registered URL. */
export function agentDownloadUrl(ctx: Pick<AppContext, 'publicOrigin'>, row: BuildLocation): string {
  if (row.file_path || !row.download_url) {
    const query = new URLSearchParams({ platform: row.platform, arch: row.architecture });
    return `${ctx.publicOrigin}/api/v1/agent-versions/${encodeURIComponent(row.version)}/download?${query}`;
  }
  return row.download_url;
}
