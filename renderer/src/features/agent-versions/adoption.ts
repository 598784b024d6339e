import type { AgentBuildCount, AgentVersion, DeviceFacets } from '../../../../server/contract';

// How many devices run each registered build, from the `agentBuild` facet (devices speak `macos` and `x64`, the
// registry `darwin` and `amd64`), and what share of their platform that is: the adoption column.

const OS_OF: Record<AgentVersion['platform'], AgentBuildCount['osType']> = {
  windows: 'windows',
  darwin: 'macos',
  linux: 'linux',
};
const ARCH_OF: Record<AgentVersion['architecture'], AgentBuildCount['architecture']> = {
  amd64: 'x64',
  arm64: 'arm64',
};

/** Device operating systems in the console's words. */
export const OS_LABEL: Record<AgentBuildCount['osType'], string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

export interface Adoption {
  /** Devices running this build. */
  devices: number;
  /** Devices of its platform and architecture, on any version. */
  platformDevices: number;
}

export interface FleetAdoption {
  total: number;
  /** Devices on a version, platform or architecture no registered build matches. */
  unregistered: number;
  of: (build: AgentVersion) => Adoption;
}

export function fleetAdoption(builds: AgentVersion[], facets: DeviceFacets): FleetAdoption {
  const counts = facets.facets.agentBuild ?? [];
  const matches = (build: AgentVersion, c: AgentBuildCount) =>
    c.osType === OS_OF[build.platform] && c.architecture === ARCH_OF[build.architecture];
  const of = (build: AgentVersion): Adoption => {
    const platform = counts.filter((c) => matches(build, c));
    return {
      devices: platform.find((c) => c.value === build.version)?.count ?? 0,
      platformDevices: platform.reduce((sum, c) => sum + c.count, 0),
    };
  };
  const registered = counts
    .filter((c) => builds.some((b) => b.version === c.value && matches(b, c)))
    .reduce((sum, c) => sum + c.count, 0);
  return { total: facets.total, unregistered: facets.total - registered, of };
}

export const percentOf = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 100);
