import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

// What the rest of the server sees of the agent hub (AppContext.agentHub). A leaf with no imports of its own:
// context.ts names this interface rather than the AgentHub class, whose file needs the context, so the two do not
// import each other.

/** A command as an agent receives it over its socket or in a heartbeat reply. */
export interface WireCommand {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface AgentHubPort {
  isConnected(deviceId: string): boolean;
  readonly connectedCount: number;
  /** Called from the HTTP server's `upgrade` event for /api/v1/agents/:agentId/ws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, agentId: string): void;
  /** Sends a stored command to the device's socket; false when the device is not connected. */
  push(deviceId: string, command: WireCommand): boolean;
  /** A live request to the device (answered over its socket, not stored). */
  request(deviceId: string, commandType: string, payload: Record<string, unknown>): Promise<unknown>;
  disconnect(deviceId: string, reason: string): void;
  /** Closes every socket of the partner's devices; returns how many. */
  disconnectPartner(partnerId: string, reason: string): number;
  /** Closes every socket of the organization's devices; returns how many. */
  disconnectOrg(orgId: string, reason: string): number;
  close(): void;
}
