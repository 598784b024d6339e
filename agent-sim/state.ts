import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

// What a simulated agent keeps between runs, like a real agent's config file: its credentials, the version it
// runs and whether it auto-updates. A fleet with `--state FILE` writes them there, so a restarted simulator
// brings back the same devices instead of enrolling new ones. One file can hold several fleets (keyed by server
// and seed). The file holds agent tokens: it is written owner-only, atomically.

export const savedAgent = z.object({
  agentId: z.string().min(1),
  deviceId: z.string().min(1),
  /** The install id it enrolled with (older state files have none). */
  installId: z.string().min(1).optional(),
  orgId: z.string().min(1),
  siteId: z.string().nullable().optional(),
  authToken: z.string().min(1),
  agentVersion: z.string().min(1),
  autoUpdate: z.boolean().default(true),
  softwareReported: z.boolean().default(false),
});
export type SavedAgent = z.infer<typeof savedAgent>;

/**
 * `active`: runs with its credentials. `uninstalled`: stopped for good by `self_uninstall` (credentials kept only
 * when the server did not ask to remove the configuration). `revoked`: the server refused the credentials (the
 * device was removed); it stays stopped unless the fleet is told to re-enroll.
 */
export type AgentSlot =
  | { state: 'active'; agent: SavedAgent }
  | { state: 'uninstalled'; agent: SavedAgent | null }
  | { state: 'revoked'; agent: null };

const slotSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('active'), agent: savedAgent }),
  z.object({ state: z.literal('uninstalled'), agent: savedAgent.nullable() }),
  z.object({ state: z.literal('revoked'), agent: z.null() }),
]);

const fileSchema = z.object({
  version: z.literal(1),
  fleets: z.record(z.string(), z.record(z.string(), slotSchema)),
});
type StateFileContent = z.infer<typeof fileSchema>;

export interface CredentialStore {
  get(index: number): AgentSlot | null;
  set(index: number, slot: AgentSlot | null): void;
  /** Writes pending changes now (the fleet calls it on stop). */
  flush(): void;
}

/** Keeps nothing: every start enrolls afresh. */
export class MemoryCredentialStore implements CredentialStore {
  private readonly slots = new Map<number, AgentSlot>();
  get(index: number): AgentSlot | null {
    return this.slots.get(index) ?? null;
  }
  set(index: number, slot: AgentSlot | null): void {
    if (slot) this.slots.set(index, slot);
    else this.slots.delete(index);
  }
  flush(): void {}
}

export class FileCredentialStore implements CredentialStore {
  private content: StateFileContent;
  private readonly key: string;
  private timer: NodeJS.Timeout | null = null;
  /** Why the last background write failed, if it did. */
  lastWriteError: string | null = null;

  constructor(
    private readonly path: string,
    server: string,
    seed: number,
    private readonly debounceMs = 500,
  ) {
    this.key = `${server.replace(/\/+$/, '')}#${seed}`;
    this.content = FileCredentialStore.read(path);
  }

  private static read(path: string): StateFileContent {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, fleets: {} };
      throw err;
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new Error(`${path} is not a simulator state file (${parsed.error.issues[0]?.message})`);
    return parsed.data;
  }

  private get fleet(): Record<string, AgentSlot> {
    return (this.content.fleets[this.key] ??= {});
  }

  get(index: number): AgentSlot | null {
    return this.fleet[String(index)] ?? null;
  }

  set(index: number, slot: AgentSlot | null): void {
    if (slot) this.fleet[String(index)] = slot;
    else delete this.fleet[String(index)];
    this.timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch (err) {
        // Kept for the next write; a full disk must not take the process (possibly the server) down.
        this.lastWriteError = err instanceof Error ? err.message : String(err);
      }
    }, this.debounceMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.content, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
    this.lastWriteError = null;
  }
}
