import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_COMMANDS } from '../../agent-sim/commands';
import type { AgentHandle, CommandOutcome } from '../../agent-sim/handle';
import { EventLogStore } from '../../agent-sim/eventlog';
import { agentIdentity } from '../../agent-sim/identity';
import { Rng } from '../../agent-sim/random';
import { DEFAULT_SCENARIO, getScenario, registerScenario, scenarioNames } from '../../agent-sim/scenarios';
import { FileCredentialStore, MemoryCredentialStore, type SavedAgent } from '../../agent-sim/state';

// Command handlers answer with the shapes the server validates (spec 2 live entries and descriptors); the
// credential store keeps agents across simulator restarts.

function fakeAgent() {
  const identity = agentIdentity(3, 0);
  const calls: string[] = [];
  const handle: AgentHandle = {
    index: 0,
    seed: 3,
    identity,
    agentId: 'agent-1',
    deviceId: 'device-1',
    agentVersion: '1.0.0',
    eventLogs: new EventLogStore(identity, 3, 0, Date.parse('2026-01-01T00:00:00Z')),
    rng: (purpose) => Rng.of(3, 0, purpose),
    log: (level, component, message) => calls.push(`log ${level} ${component} ${message}`),
    request: () => Promise.reject(new Error('no network in this test')),
    devUpdate: async (url, checksum) => {
      calls.push(`devUpdate ${url} ${checksum}`);
      return { status: 'completed', result: { version: '9.9.9' } };
    },
    uninstall: (removeConfig) => calls.push(`uninstall ${removeConfig}`),
  };
  return { handle, calls };
}

const run = (type: string, payload: Record<string, unknown>, handle: AgentHandle) =>
  Promise.resolve(BUILT_IN_COMMANDS[type]!(payload, handle)) as Promise<CommandOutcome>;

describe('built-in command handlers', () => {
  it('event_logs_list, event_log_info and event_log_get answer from the machine’s logs', async () => {
    const { handle } = fakeAgent();
    const list = await run('event_logs_list', {}, handle);
    expect(list).toEqual({ status: 'completed', result: { logs: handle.eventLogs.list() } });
    expect(await run('event_log_info', { logName: 'system' }, handle)).toEqual({
      status: 'completed',
      result: handle.eventLogs.info('System'),
    });
    // No such log or record: a `null` answer (the server turns it into its 404), not a failure.
    expect(await run('event_log_info', { logName: 'Nope' }, handle)).toEqual({
      status: 'completed',
      result: null,
    });
    const [newest] = handle.eventLogs.query('Setup', { limit: 1 })!.events;
    expect(await run('event_log_get', { logName: 'Setup', recordId: newest!.recordId }, handle)).toEqual({
      status: 'completed',
      result: newest,
    });
    expect(await run('event_log_get', { logName: 'Setup', recordId: '7' }, handle)).toEqual({
      status: 'completed',
      result: null,
    });
  });

  it('event_logs_query takes filters as numbers or strings and pages', async () => {
    const { handle } = fakeAgent();
    const outcome = await run(
      'event_logs_query',
      { logName: 'Security', page: '2', limit: '3', level: 'warning' },
      handle,
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.result).toEqual(
      handle.eventLogs.query('Security', { page: 2, limit: 3, level: 'warning' }),
    );
    expect(await run('event_logs_query', { logName: 'Missing', page: 1, limit: 5 }, handle)).toEqual({
      status: 'failed',
      error: 'Event log not found: Missing',
    });
  });

  it('fails malformed payloads with a reason instead of throwing', async () => {
    const { handle } = fakeAgent();
    expect(await run('event_log_info', {}, handle)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Invalid payload: logName/),
    });
    expect(await run('event_log_get', { logName: 'System', recordId: 'abc' }, handle)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Invalid payload: recordId/),
    });
    expect(await run('dev_update', { downloadUrl: 'http://x' }, handle)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Invalid payload: checksum/),
    });
  });

  it('self_uninstall reports first and uninstalls after; dev_update goes to the updater', async () => {
    const { handle, calls } = fakeAgent();
    const outcome = await run('self_uninstall', { removeConfig: true }, handle);
    expect(outcome).toMatchObject({ status: 'completed', result: { uninstalled: true, removeConfig: true } });
    expect(calls).not.toContain('uninstall true');
    outcome.after!();
    expect(calls).toContain('uninstall true');
    expect((await run('self_uninstall', {}, handle)).result).toEqual({
      uninstalled: true,
      removeConfig: false,
    });
    expect(await run('dev_update', { downloadUrl: 'http://x/y', checksum: 'ab' }, handle)).toEqual({
      status: 'completed',
      result: { version: '9.9.9' },
    });
    expect(calls).toContain('devUpdate http://x/y ab');
  });
});

describe('scenarios', () => {
  it('offers steady (default), noisy-logs and flaky-network, and takes new ones', () => {
    expect(DEFAULT_SCENARIO).toBe('steady');
    expect(scenarioNames()).toEqual(expect.arrayContaining(['steady', 'noisy-logs', 'flaky-network']));
    expect(getScenario('flaky-network')!.network.requestFailureRate).toBeGreaterThan(0);
    expect(getScenario('nope')).toBeNull();
    registerScenario({ ...getScenario('steady')!, name: 'pam-test', hooks: { commands: {} } });
    expect(getScenario('pam-test')?.hooks?.commands).toEqual({});
  });
});

describe('credential stores', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const agent: SavedAgent = {
    agentId: 'a1',
    deviceId: 'd1',
    orgId: 'o1',
    siteId: null,
    authToken: 'agt_secret',
    agentVersion: '1.0.0',
    autoUpdate: true,
    softwareReported: true,
  };

  it('keeps slots per server and seed in an owner-only file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-sim-state-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'state.json');
    const store = new FileCredentialStore(path, 'http://localhost:4600/', 1);
    store.set(0, { state: 'active', agent });
    store.set(1, { state: 'uninstalled', agent: null });
    store.set(2, { state: 'revoked', agent: null });
    store.flush();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = new FileCredentialStore(path, 'http://localhost:4600', 1);
    expect(again.get(0)).toEqual({ state: 'active', agent });
    expect(again.get(1)).toEqual({ state: 'uninstalled', agent: null });
    expect(again.get(2)).toEqual({ state: 'revoked', agent: null });
    expect(again.get(3)).toBeNull();
    // Another seed or server is another fleet in the same file.
    const other = new FileCredentialStore(path, 'http://localhost:4600', 2);
    expect(other.get(0)).toBeNull();
    other.set(0, null);
    other.flush();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).fleets)).toEqual([
      'http://localhost:4600#1',
      'http://localhost:4600#2',
    ]);
  });

  it('refuses a file that is not a state file, and starts empty when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-sim-state-'));
    dirs.push(dir);
    expect(new FileCredentialStore(join(dir, 'missing.json'), 'http://x', 1).get(0)).toBeNull();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ version: 2 }));
    expect(() => new FileCredentialStore(bad, 'http://x', 1)).toThrow(/not a simulator state file/);
  });

  it('the memory store forgets on request', () => {
    const store = new MemoryCredentialStore();
    store.set(4, { state: 'active', agent });
    expect(store.get(4)?.state).toBe('active');
    store.set(4, null);
    expect(store.get(4)).toBeNull();
  });
});
