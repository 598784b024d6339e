import type {
  AgentArch,
  AgentPlatform,
  AgentVersion,
  AgentVersionList,
  AgentVersionRollout,
} from '../agent-versions';
import type { Endpoint } from './endpoint';

// The agent builds (spec 3 /agent-versions) and their staged rollout.

export interface RegisterVersionBody {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  downloadUrl: string;
  checksum: string;
  releaseNotes?: string;
}

export interface AgentVersionEndpoints {
  'GET /agent-versions': Endpoint<AgentVersionList>;
  'POST /agent-versions': Endpoint<AgentVersion, RegisterVersionBody>;
  /** `percent`: the share of eligible devices offered the version, 0-100. */
  'PUT /agent-versions/:version/rollout': Endpoint<AgentVersionRollout, { percent: number }>;
}
