import type { AppContext } from '../../context';
import type { Architecture, OsType } from '../../contract';
import { inRollout } from './rollout';
import { latestAgentVersionOf } from './store';
import { agentDownloadUrl, archOf, compareVersions, platformOf } from './versions';

// What a heartbeat offers an agent (spec 3, Versioning): the latest registered version for its platform and
// architecture, only when it is newer than what the agent runs (never a downgrade), and only to the devices its
// staged rollout has reached (rollout.ts). While the latest build is paused or not yet at a device, that device is
// offered nothing: an older build is never offered in its place.

export { agentDownloadUrl, archOf, compareVersions, platformOf } from './versions';

export interface UpgradeOffer {
  version: string;
  downloadUrl: string;
  checksum: string;
}

interface DeviceBuild {
  osType: OsType;
  architecture: Architecture;
  agentVersion: string;
}

function newerLatest(ctx: Pick<AppContext, 'db'>, device: DeviceBuild) {
  const arch = archOf(device.architecture);
  if (!arch) return null;
  const latest = latestAgentVersionOf(ctx.db, platformOf(device.osType), arch);
  if (!latest || compareVersions(latest.version, device.agentVersion) <= 0) return null;
  return latest;
}

/** The newer latest build for a device of this kind, whatever its rollout: "behind the latest build". */
export function upgradeFor(
  ctx: Pick<AppContext, 'db' | 'publicOrigin'>,
  device: DeviceBuild,
): UpgradeOffer | null {
  const latest = newerLatest(ctx, device);
  if (!latest) return null;
  return { version: latest.version, downloadUrl: agentDownloadUrl(ctx, latest), checksum: latest.checksum };
}

/** What this device's heartbeat is offered: the newer latest build, once its rollout has reached the device. */
export function offeredUpgrade(
  ctx: Pick<AppContext, 'db' | 'publicOrigin'>,
  device: DeviceBuild & { id: string },
): UpgradeOffer | null {
  const latest = newerLatest(ctx, device);
  if (!latest || !inRollout(latest.rollout_percent, latest.version, device.id)) return null;
  return { version: latest.version, downloadUrl: agentDownloadUrl(ctx, latest), checksum: latest.checksum };
}
