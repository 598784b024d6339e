import { BUILT_IN_COMMANDS } from './commands';
import type { AgentHandle, CommandHandler, CommandOutcome } from './handle';
import type { AgentLog, FleetCounters } from './agent-options';
import { errorMessage } from './answers';
import type { CommandResult } from './protocol';
import { backoff } from './random';
import { sleep } from './timing';
import type { HttpAnswer } from './transport';

// Running the commands the server queues (DESIGN §3) and sending each result back the way the command came:
// over the socket while it is open, else by HTTP with a few retries.

const REMEMBERED_COMMANDS = 500;

export interface CommandHost {
  readonly counters: FleetCounters;
  /** The scenario's own handlers, which take precedence over the built-in ones. */
  readonly scenarioCommands: Record<string, CommandHandler> | undefined;
  readonly handle: AgentHandle;
  runSignal(): AbortSignal | null;
  log: AgentLog;
  /** Sends a frame over the agent socket; false when it is not open. */
  sendOverSocket(message: object): boolean;
  request(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<HttpAnswer>;
}

export class CommandRunner {
  private readonly handled = new Set<string>();

  constructor(private readonly host: CommandHost) {}

  async run(
    id: string,
    type: string,
    payload: Record<string, unknown>,
    via: 'socket' | 'http',
  ): Promise<void> {
    // A queued command may reach the agent both over the socket and in a heartbeat: run it once.
    if (this.handled.has(id)) return;
    this.handled.add(id);
    if (this.handled.size > REMEMBERED_COMMANDS) this.handled.delete(this.handled.values().next().value!);
    this.host.counters.commands++;
    const handler = this.host.scenarioCommands?.[type] ?? BUILT_IN_COMMANDS[type];
    let outcome: CommandOutcome;
    if (!handler) outcome = { status: 'failed', error: `Unsupported command type: ${type}` };
    else {
      try {
        outcome = await handler(payload, this.host.handle);
      } catch (err) {
        outcome = { status: 'failed', error: errorMessage(err) };
      }
    }
    const { after, ...result } = outcome;
    if (result.status !== 'completed')
      this.host.log('warn', 'commands', `${type} ${result.status}: ${result.error ?? ''}`);
    await this.deliver(id, result, via);
    after?.();
  }

  private async deliver(id: string, result: CommandResult, via: 'socket' | 'http'): Promise<void> {
    const { host } = this;
    if (via === 'socket' && host.sendOverSocket({ type: 'command_result', commandId: id, ...result })) return;
    for (let attempt = 0; attempt < 4; attempt++) {
      const signal = host.runSignal() ?? undefined;
      try {
        const answer = await host.request(
          'POST',
          `/commands/${encodeURIComponent(id)}/result`,
          result,
          signal,
        );
        if (answer.status < 500 && answer.status !== 429) {
          if (answer.status >= 400)
            host.log('warn', 'commands', `result for ${id} refused: HTTP ${answer.status}`);
          return;
        }
      } catch {
        // retried below
      }
      host.counters.errors++;
      await sleep(backoff(attempt, 500, 5_000), signal);
      if (signal?.aborted) return;
    }
  }
}
