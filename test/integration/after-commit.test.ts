import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, transaction } from '../../server/db/after-commit';
import type { BusMessage } from '../../server/events/bus';
import { queueCommand } from '../../server/modules/agents/commands';
import { mintEnrollmentKey, startAgentServer, TestAgent, type AgentSocket } from '../support/agent-client';
import { insertOrg, insertPartner } from '../support/seed';
import type { TestServer } from '../support/server';

// DESIGN §6: side effects outside SQLite happen only after commit. A command queued and an event emitted in a
// transaction that rolls back never reach the agent socket or the bus listeners (console pushes); committed, they
// go out exactly once, after the commit, when a second connection already sees the row.

let server: TestServer;
let orgId: string;
let agent: TestAgent;
let socket: AgentSocket;
/** A second connection: what it sees is committed. */
let observer: Database.Database;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  server = await startAgentServer();
  const { partnerId } = insertPartner(server);
  orgId = insertOrg(server, partnerId, 'Contoso');
  agent = await TestAgent.enroll(server, mintEnrollmentKey(server, orgId).key);
  socket = await agent.connect();
  await socket.next((m) => m.type === 'connected');
  observer = new Database(server.context.db.name, { readonly: true });
});
afterEach(() => {
  for (const undo of cleanups.splice(0)) undo();
});
afterAll(async () => {
  observer.close();
  await socket.close();
  await server.dispose();
});

const ctx = () => server.context;
const committedCommand = (id: string) =>
  observer.prepare('SELECT id, status FROM device_commands WHERE id = ?').get(id) as
    { id: string; status: string } | undefined;

function queueUninstall(): string {
  return queueCommand(ctx(), {
    deviceId: agent.creds.deviceId,
    orgId,
    type: 'self_uninstall',
    payload: { removeConfig: false },
    createdBy: null,
  }).id;
}

function emitDeviceUpdated(): void {
  ctx().bus.emit('device.updated', orgId, {
    deviceId: agent.creds.deviceId,
    hostname: 'after-commit-host',
    orgId,
    siteId: null,
    status: 'online',
  });
}

/** Bus deliveries of this device's events, with whether a transaction was open at the time. */
function recordBus(): Array<{ event: string; inTransaction: boolean }> {
  const seen: Array<{ event: string; inTransaction: boolean }> = [];
  const off = ctx().bus.onAny((m: BusMessage) => {
    const data = m.data as { deviceId?: string };
    if (data.deviceId === agent.creds.deviceId) {
      seen.push({ event: m.event, inTransaction: ctx().db.inTransaction });
    }
  });
  cleanups.push(off);
  return seen;
}

/** Every push to the agent socket, with what a second connection saw of the command at that moment. */
function recordPushes(): Array<{ id: string; inTransaction: boolean; committed: boolean }> {
  const hub = ctx().agentHub;
  const original = hub.push.bind(hub);
  const seen: Array<{ id: string; inTransaction: boolean; committed: boolean }> = [];
  hub.push = (deviceId, command) => {
    seen.push({
      id: command.id,
      inTransaction: ctx().db.inTransaction,
      committed: committedCommand(command.id) !== undefined,
    });
    return original(deviceId, command);
  };
  cleanups.push(() => (hub.push = original));
  return seen;
}

/** The socket is ordered: once the agent has its pong, anything the server sent before it has arrived. */
async function drainSocket(): Promise<void> {
  const pongs = socket.messages.filter((m) => m.type === 'pong').length;
  socket.send({ type: 'ping' });
  await socket.next(
    (m) => m.type === 'pong' && socket.messages.filter((p) => p.type === 'pong').length > pongs,
  );
}

const commandsReceived = (id: string) => socket.messages.filter((m) => m.type === 'command' && m.id === id);

describe('after commit', () => {
  it('sends nothing to the agent and announces nothing when the transaction rolls back', async () => {
    const bus = recordBus();
    const pushes = recordPushes();
    let commandId = '';
    expect(() =>
      transaction(ctx().db, () => {
        commandId = queueUninstall();
        emitDeviceUpdated();
        throw new Error('rolled back on purpose');
      }),
    ).toThrow('rolled back on purpose');

    await drainSocket();
    expect(commandId).not.toBe('');
    expect(commandsReceived(commandId)).toEqual([]);
    expect(pushes).toEqual([]);
    expect(bus).toEqual([]);
    expect(committedCommand(commandId)).toBeUndefined();
    expect(ctx().db.prepare('SELECT 1 FROM device_commands WHERE id = ?').get(commandId)).toBeUndefined();
  });

  it('sends the committed change exactly once, after the commit', async () => {
    const bus = recordBus();
    const pushes = recordPushes();
    const commandId = transaction(ctx().db, () => {
      const id = queueUninstall();
      emitDeviceUpdated();
      // Still inside: nothing has left the process yet.
      expect(pushes).toEqual([]);
      expect(bus).toEqual([]);
      return id;
    });

    expect(pushes).toEqual([{ id: commandId, inTransaction: false, committed: true }]);
    expect(bus).toEqual([{ event: 'device.updated', inTransaction: false }]);
    await socket.nextCommand('self_uninstall');
    await drainSocket();
    expect(commandsReceived(commandId)).toHaveLength(1);
    expect(committedCommand(commandId)).toEqual({ id: commandId, status: 'sent' });
  });

  it('drops only what a rolled-back savepoint queued; the outer transaction still sends its own', async () => {
    const pushes = recordPushes();
    let inner = '';
    const outer = transaction(ctx().db, () => {
      const id = queueUninstall();
      try {
        transaction(ctx().db, () => {
          inner = queueUninstall();
          throw new Error('inner rolled back');
        });
      } catch {
        // The savepoint is gone; the outer transaction carries on.
      }
      return id;
    });

    await drainSocket();
    expect(pushes.map((p) => p.id)).toEqual([outer]);
    expect(commandsReceived(outer)).toHaveLength(1);
    expect(commandsReceived(inner)).toEqual([]);
    expect(committedCommand(inner)).toBeUndefined();
  });

  it('refuses to queue inside a transaction it cannot see commit', () => {
    const db = ctx().db;
    expect(() => db.transaction(() => afterCommit(db, () => undefined))()).toThrow(/transaction\(\)/);
  });

  it('the bus is strict: a publish inside a bare transaction throws and announces nothing', () => {
    const bus = recordBus();
    const db = ctx().db;
    expect(() => db.transaction(() => emitDeviceUpdated())()).toThrow(/transaction\(\)/);
    expect(bus).toEqual([]);
    // Outside any transaction a publish is delivered at once.
    emitDeviceUpdated();
    expect(bus).toEqual([{ event: 'device.updated', inTransaction: false }]);
  });
});
