import type { AgentVersion } from '../../../../server/contract';

// The words the agent-versions screens use for the registry's vocabulary.

export const PLATFORM_LABEL: Record<AgentVersion['platform'], string> = {
  windows: 'Windows',
  darwin: 'macOS',
  linux: 'Linux',
};

export const SOURCE_LABEL: Record<AgentVersion['source'], string> = {
  scan: 'Bundled',
  manual: 'Registered',
  github: 'Release feed',
};

/** "All eligible devices", "Paused" or "25 % of eligible devices". */
export function rolloutLabel(percent: number): string {
  if (percent >= 100) return 'All eligible devices';
  if (percent <= 0) return 'Paused';
  return `${percent} % of eligible devices`;
}
