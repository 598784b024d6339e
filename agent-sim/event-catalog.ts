import type { EventTemplate, LogName } from './event-template';
import { LINUX } from './events-linux';
import { MACOS } from './events-macos';
import { WINDOWS } from './events-windows';
import type { OsType } from './identity';

// What shows up in a simulated machine's operating-system logs: Windows event sources and ids, syslog-style
// programs for Linux, unified-log subsystems for macOS. Each template says how often it occurs, how severe it is
// and how to word one occurrence (the wording is drawn from the record's own seeded Rng, so a record reads the
// same every time it is generated).
//
// The templates live one file per operating system (events-windows.ts, events-windows-security.ts,
// events-linux.ts, events-macos.ts); their shape in event-template.ts, the words they draw from in event-words.ts.

export {
  LOG_NAMES,
  type EventTemplate,
  type LiveLevel,
  type LogName,
  type Rendered,
  type StoredCategory,
} from './event-template';

export function catalogFor(osType: OsType): Record<LogName, EventTemplate[]> {
  return osType === 'windows' ? WINDOWS : osType === 'macos' ? MACOS : LINUX;
}

/** Event Viewer's numeric level for the raw XML. Security audits are level 0 with an audit keyword. */
export function xmlLevel(template: EventTemplate): number {
  if (template.source === 'Microsoft-Windows-Security-Auditing') return 0;
  return { critical: 1, error: 2, warning: 3, information: 4, verbose: 5 }[template.level];
}
