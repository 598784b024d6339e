import type { AiToolCatalogEntry, ElevationFlowType, RiskLevel } from '../../contract';

// The AI tools this server build knows, with the risk tiers each can carry (spec 2: "risk tiers of a tool are
// set by the server build, not by the rule"). An agent reports a tool action's tier; for a known tool a tier
// outside its set is raised to the tool's highest tier, never lowered, so a misbehaving agent cannot talk a
// destructive action down to "low". Changing a tool's tiers in a later build can strand rules pinned to a tier
// the tool no longer has: the start-up check names them (policy/stale-tiers.ts).

export const AI_TOOL_CATALOG: readonly AiToolCatalogEntry[] = [
  { toolName: 'read_file', description: 'Read a file', tiers: [0] },
  { toolName: 'list_processes', description: 'List running processes', tiers: [0] },
  { toolName: 'query_event_log', description: 'Query an operating-system event log', tiers: [0, 1] },
  { toolName: 'write_file', description: 'Create or change a file', tiers: [1, 2] },
  { toolName: 'restart_service', description: 'Restart a system service', tiers: [2] },
  { toolName: 'run_powershell', description: 'Run a PowerShell or shell command', tiers: [2, 3, 4] },
  { toolName: 'install_software', description: 'Install or update software', tiers: [3] },
  { toolName: 'modify_registry', description: 'Change machine-wide registry settings', tiers: [3] },
  {
    toolName: 'manage_local_users',
    description: 'Create local accounts or change group membership',
    tiers: [4],
  },
  { toolName: 'disable_security_tool', description: 'Stop or reconfigure endpoint protection', tiers: [4] },
];

const byName = new Map(AI_TOOL_CATALOG.map((t) => [t.toolName.toLowerCase(), t]));

/** The tiers a tool can carry in this build, or null for a tool the build does not know. */
export function validTiersOf(toolName: string): number[] | null {
  return byName.get(toolName.trim().toLowerCase())?.tiers ?? null;
}

/** Unknown tools are treated as critical until the build knows them. */
export const UNKNOWN_TOOL_TIER = 4;

/**
 * The tier the server records for a reported tool action (see the note at the top). A tool this build does not
 * know is critical whatever the agent says: nothing vouches for a lower tier.
 */
export function effectiveTier(toolName: string, reported: number | null): number {
  const tiers = validTiersOf(toolName);
  if (!tiers) return UNKNOWN_TOOL_TIER;
  if (reported !== null && tiers.includes(reported)) return reported;
  return Math.max(...tiers);
}

/**
 * DESIGN §5 request risk: AI tool actions by tier (0-1 low, 2 medium, 3 high, 4 critical); UAC prompts medium
 * when signed, high when unsigned; technician just-in-time admin high.
 */
export function riskLevelOf(
  flowType: ElevationFlowType,
  signer: string | null,
  riskTier: number | null,
): RiskLevel {
  if (flowType === 'tech_jit_admin') return 'high';
  if (flowType === 'uac_intercept') return signer ? 'medium' : 'high';
  const tier = riskTier ?? UNKNOWN_TOOL_TIER;
  return tier <= 1 ? 'low' : tier === 2 ? 'medium' : tier === 3 ? 'high' : 'critical';
}
