import type { AgentIdentity } from './identity';
import type { Rng } from './random';

// The shape of an OS event template: where it is logged, how often and how severely, and how one occurrence is
// worded (from the record's own seeded Rng, so a record reads the same every time it is generated).

export type LogName = 'Application' | 'System' | 'Security' | 'Setup';
export const LOG_NAMES: readonly LogName[] = ['Application', 'System', 'Security', 'Setup'];

export type LiveLevel = 'information' | 'warning' | 'error' | 'critical' | 'verbose';
export type StoredCategory = 'security' | 'hardware' | 'application' | 'system';

export interface Rendered {
  message: string;
  /** Named values for the XML EventData section. */
  data: Record<string, string>;
  /** `DOMAIN\user`-style account, null when the event has none. */
  user: string | null;
}

export interface EventTemplate {
  source: string;
  eventId: number;
  level: LiveLevel;
  /** The broad category used when the event is reported for storage (spec 2 device event log). */
  category: StoredCategory;
  /** Event Viewer's "Task Category" (or the subsystem category on macOS and Linux). */
  task: string;
  weight: number;
  /** Security audit failure (Windows keyword), shown as a warning. */
  auditFailure?: boolean;
  render: (rng: Rng, id: AgentIdentity) => Rendered;
}
