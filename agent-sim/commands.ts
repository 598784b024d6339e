import { z } from 'zod';
import type { CommandHandler, CommandOutcome } from './handle';
import { parsePayload } from './protocol';
import { PAM_COMMANDS } from './pam';

// Command handlers (DESIGN §3 command types). The same handler runs whether the command came over the agent
// socket or was claimed by a heartbeat; the agent sends the outcome back the matching way. Payloads come from
// the server and are validated here before use: a malformed payload fails the command with a reason.
// Live query answers: event_logs_list {logs}, event_log_info descriptor or null, event_logs_query
// {events, total, page, limit}, event_log_get entry or null (spec 2 live shapes). actuate_elevation and
// revoke_elevation answer {enforcementStatus: 'active', grantedAt} and {enforcementStatus: 'cleaned_up'}.

const failed = (error: string): CommandOutcome => ({ status: 'failed', error });

const logName = z.string().trim().min(1).max(255);
// Numbers may arrive as strings when the server forwards query-string values untouched.
const optionalInt = z.coerce.number().int().optional();
const optionalText = z
  .string()
  .trim()
  .max(255)
  .optional()
  .transform((v) => v || undefined);

const infoPayload = z.object({ logName });
const queryPayload = z.object({
  logName,
  level: optionalText,
  source: optionalText,
  eventId: optionalInt,
  startTime: optionalText,
  endTime: optionalText,
  page: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
});
const getPayload = z.object({ logName, recordId: z.coerce.number().int().nonnegative() });
const uninstallPayload = z.object({ removeConfig: z.boolean().optional().default(false) });
const devUpdatePayload = z.object({ downloadUrl: z.string().min(1), checksum: z.string().min(1) });

export const BUILT_IN_COMMANDS: Record<string, CommandHandler> = {
  event_logs_list: (_payload, agent) => ({ status: 'completed', result: { logs: agent.eventLogs.list() } }),

  event_log_info: (payload, agent) => {
    const p = parsePayload(infoPayload, payload);
    if (!p.ok) return failed(p.error);
    // No such log is an answer, not a failure: `null`, which the server turns into its 404.
    return { status: 'completed', result: agent.eventLogs.info(p.value.logName) };
  },

  event_logs_query: (payload, agent) => {
    const p = parsePayload(queryPayload, payload);
    if (!p.ok) return failed(p.error);
    const { logName: name, ...query } = p.value;
    const page = agent.eventLogs.query(name, query);
    // A query against a log the machine does not have fails, as the OS API would.
    return page ? { status: 'completed', result: page } : failed(`Event log not found: ${name}`);
  },

  event_log_get: (payload, agent) => {
    const p = parsePayload(getPayload, payload);
    if (!p.ok) return failed(p.error);
    return { status: 'completed', result: agent.eventLogs.get(p.value.logName, p.value.recordId) };
  },

  self_uninstall: (payload, agent) => {
    const p = parsePayload(uninstallPayload, payload);
    if (!p.ok) return failed(p.error);
    agent.log('info', 'service', 'uninstall requested by the server', { removeConfig: p.value.removeConfig });
    return {
      status: 'completed',
      result: { uninstalled: true, removeConfig: p.value.removeConfig },
      after: () => agent.uninstall(p.value.removeConfig),
    };
  },

  dev_update: async (payload, agent) => {
    const p = parsePayload(devUpdatePayload, payload);
    if (!p.ok) return failed(p.error);
    return agent.devUpdate(p.value.downloadUrl, p.value.checksum);
  },

  // Privileged access (issue 5): grant and remove time-boxed local administrator membership (agent-sim/pam.ts).
  ...PAM_COMMANDS,
};
