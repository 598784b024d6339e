import type { AppContext } from '../../context';
import type { Architecture, OsType } from '../../contract';
import { latestAgentVersionOf } from './store';
import { agentDownloadUrl, archOf, compareVersions, platformOf } from './versions';

// What a heartbeat offers an agent (spec 3, Versioning): the latest registered version for its platform and
// architecture, only when it is newer than what the agent runs. Never a downgrade.

export { agentDownloadUrl, archOf, compareVersions, platformOf } from './versions';

export interface UpgradeOffer {
  version: string;
  downloadUrl: string;
  checksum: string;
}

export function upgradeFor(
  ctx: Pick<AppContext, 'db' | 'publicOrigin'>,
  device: { osType: OsType; architecture: Architecture; agentVersion: string },
): UpgradeOffer | null {
  const arch = archOf(device.architecture);
  if (!arch) return null;
  const latest = latestAgentVersionOf(ctx.db, platformOf(device.osType), arch);
  if (!latest || compareVersions(latest.version, device.agentVersion) <= 0) return null;
  return { version: latest.version, downloadUrl: agentDownloadUrl(ctx, latest), checksum: latest.checksum };
}
