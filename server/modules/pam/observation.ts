import type { ElevationFlowType } from '../../contract';

/**
 * What an agent observed about one elevation prompt, normalized at ingest: the input of the decision chain
 * (software-policy bridge, rules, organization default) and of rule previews against stored history.
 */
export interface Observation {
  flowType: ElevationFlowType;
  subjectUsername: string | null;
  subjectAdGroups: string[];
  targetExecutablePath: string | null;
  /** Lower-case SHA-256 hex. */
  targetExecutableHash: string | null;
  targetExecutableSigner: string | null;
  /** Lower-case SHA-256 hex of the signing certificate. */
  targetSignerThumbprint: string | null;
  parentImage: string | null;
  commandLine: string | null;
  toolName: string | null;
  riskTier: number | null;
}
