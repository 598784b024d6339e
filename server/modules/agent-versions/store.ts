import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform, AgentVersion } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { agentDownloadUrl, compareVersions } from './versions';

// SQL of the agent version registry. One row per (version, platform, architecture); `is_latest` marks the
// highest version of each platform and architecture and is recomputed inside every write that can move it, so
// a pair never has two latest rows, nor none while it has builds.

export const AGENT_PLATFORMS = ['windows', 'darwin', 'linux'] as const satisfies readonly AgentPlatform[];
export const AGENT_ARCHES = ['amd64', 'arm64'] as const satisfies readonly AgentArch[];
export type AgentVersionSource = AgentVersion['source'];

export interface AgentVersionRow {
  id: string;
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  download_url: string | null;
  file_path: string | null;
  checksum: string;
  size_bytes: number | null;
  source: AgentVersionSource;
  release_notes: string | null;
  is_latest: 0 | 1;
  created_at: string;
}

export interface NewAgentVersion {
  version: string;
  platform: AgentPlatform;
  architecture: AgentArch;
  downloadUrl: string | null;
  filePath: string | null;
  checksum: string;
  sizeBytes: number | null;
  source: AgentVersionSource;
  releaseNotes: string | null;
}

/** Newest version first; equal versions by platform and architecture so the order is stable. */
export function newestFirst(a: AgentVersionRow, b: AgentVersionRow): number {
  return (
    compareVersions(b.version, a.version) ||
    a.platform.localeCompare(b.platform) ||
    a.architecture.localeCompare(b.architecture)
  );
}

export function toAgentVersion(ctx: Pick<AppContext, 'publicOrigin'>, row: AgentVersionRow): AgentVersion {
  return {
    id: row.id,
    version: row.version,
    platform: row.platform,
    architecture: row.architecture,
    downloadUrl: agentDownloadUrl(ctx, row),
    checksum: row.checksum,
    sizeBytes: row.size_bytes,
    source: row.source,
    releaseNotes: row.release_notes,
    isLatest: row.is_latest === 1,
    createdAt: row.created_at,
  };
}

export class AgentVersionStore {
  constructor(private readonly db: Db) {}

  all(
    filter: { platform?: AgentPlatform | undefined; arch?: AgentArch | undefined } = {},
  ): AgentVersionRow[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM agent_versions
         WHERE (@platform IS NULL OR platform = @platform) AND (@arch IS NULL OR architecture = @arch)`,
      )
      .all({ platform: filter.platform ?? null, arch: filter.arch ?? null }) as AgentVersionRow[];
    return rows.sort(newestFirst);
  }

  byId(id: string): AgentVersionRow | undefined {
    return this.db.prepare('SELECT * FROM agent_versions WHERE id = ?').get(id) as
      AgentVersionRow | undefined;
  }

  find(version: string, platform: AgentPlatform, arch: AgentArch): AgentVersionRow | undefined {
    return this.db
      .prepare('SELECT * FROM agent_versions WHERE version = ? AND platform = ? AND architecture = ?')
      .get(version, platform, arch) as AgentVersionRow | undefined;
  }

  /** The latest build of a pair, of one side of it, or of everything: the highest version among latest rows. */
  latest(filter: {
    platform?: AgentPlatform | undefined;
    arch?: AgentArch | undefined;
  }): AgentVersionRow | null {
    const rows = this.db
      .prepare(
        `SELECT * FROM agent_versions WHERE is_latest = 1
           AND (@platform IS NULL OR platform = @platform) AND (@arch IS NULL OR architecture = @arch)`,
      )
      .all({ platform: filter.platform ?? null, arch: filter.arch ?? null }) as AgentVersionRow[];
    return rows.sort(newestFirst)[0] ?? null;
  }

  /** The build a heartbeat offers for this pair (read on every heartbeat: a cached statement). */
  latestOf(platform: AgentPlatform, arch: AgentArch): AgentVersionRow | undefined {
    return statement(
      this.db,
      'SELECT * FROM agent_versions WHERE platform = ? AND architecture = ? AND is_latest = 1',
    ).get(platform, arch) as AgentVersionRow | undefined;
  }

  /** Inserts a build; the caller runs it inside a transaction together with {@link recomputeLatest}. */
  insert(input: NewAgentVersion, at = new Date().toISOString()): string {
    const id = randomUUID();
    this.db
      .prepare(
        `INSERT INTO agent_versions (id, version, platform, architecture, download_url, file_path, checksum,
           size_bytes, source, release_notes, is_latest, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(
        id,
        input.version,
        input.platform,
        input.architecture,
        input.downloadUrl,
        input.filePath,
        input.checksum,
        input.sizeBytes,
        input.source,
        input.releaseNotes,
        at,
      );
    return id;
  }

  /** A scanned file whose bytes changed, or a registered build now also held locally. */
  updateFile(id: string, file: { filePath: string; checksum: string; sizeBytes: number }): void {
    this.db
      .prepare('UPDATE agent_versions SET file_path = ?, checksum = ?, size_bytes = ? WHERE id = ?')
      .run(file.filePath, file.checksum, file.sizeBytes, id);
  }

  /** The local copy of a registered build is gone (or wrong): downloads fall back to its URL. */
  detachFile(id: string): void {
    this.db.prepare('UPDATE agent_versions SET file_path = NULL WHERE id = ?').run(id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM agent_versions WHERE id = ?').run(id);
  }

  /**
   * Marks the highest version of the pair as its only latest row. Versions compare numerically (compareVersions),
   * which SQL cannot do on text, so the winner is picked here; the pair holds a handful of rows.
   */
  recomputeLatest(platform: AgentPlatform, arch: AgentArch): void {
    const rows = this.db
      .prepare('SELECT id, version FROM agent_versions WHERE platform = ? AND architecture = ?')
      .all(platform, arch) as Array<{ id: string; version: string }>;
    const winner = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
    this.db
      .prepare('UPDATE agent_versions SET is_latest = (id = ?) WHERE platform = ? AND architecture = ?')
      .run(winner?.id ?? '', platform, arch);
  }
}
