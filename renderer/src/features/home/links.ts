import type { DashboardAgentUpdates, ElevationOutcome, RiskLevel } from '../../../../server/contract';

// Where each Overview tile leads: the list that shows the same items, filtered the same way (so a tile's number
// and the list's length agree).

export const links = {
  /** The approvals inbox, critical (or any one risk) only; the inbox reads `risk` from the URL. */
  pending: (risk?: RiskLevel) => (risk ? `/approvals?risk=${risk}` : '/approvals'),
  activeGrants: '/approvals/active',
  request: (id: string) => `/approvals/${encodeURIComponent(id)}`,
  /** The elevation history of one outcome (its status filter: pending, approved, auto_approved, denied, expired). */
  history: (outcome?: ElevationOutcome) =>
    outcome ? `/approvals/history?status=${outcome}` : '/approvals/history',
  devices: (status?: 'online' | 'offline') => (status ? `/devices?status=${status}` : '/devices'),
  device: (id: string) => `/devices/${encodeURIComponent(id)}`,
  audit: '/audit',
  /**
   * The devices behind the latest agent: the device list with ad-hoc conditions, one (platform, architecture,
   * version) group each, so the list holds exactly the devices the tile counts.
   */
  outdatedAgents: (updates: DashboardAgentUpdates) => {
    if (updates.behind.length === 0) return '/devices';
    const conditions = {
      operator: 'OR',
      conditions: updates.behind.map((b) => ({
        operator: 'AND',
        conditions: [
          { field: 'osType', operator: 'equals', value: b.osType },
          { field: 'architecture', operator: 'equals', value: b.architecture },
          { field: 'agentVersion', operator: 'equals', value: b.agentVersion },
        ],
      })),
    };
    return `/devices?conditions=${encodeURIComponent(JSON.stringify(conditions))}`;
  },
};
