import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform, AgentVersion } from '../../contract';
import { statement, type Db } from '../../db/connection';
import { agentDownloadUrl, compareVersions } from './versions';

// SQL of the agent version registry, as free functions of the database. One row per (version, platform,
// architecture); `is_latest` marks the highest version of each platform and architecture and is recomputed inside
// every write that can move it, so a pair never has two latest rows, nor none while it has builds.

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
  /** The version's staged rollout (agent_version_rollouts), 100 when none was set. */
  rollout_percent: number;
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

/** Every read of a build carries its version's rollout share (100 when no rollout was set). */
const BUILDS = `agent_versions v LEFT JOIN agent_version_rollouts r ON r.version = v.version`;
const BUILD_COLUMNS = 'v.*, COALESCE(r.percent, 100) AS rollout_percent';

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
    rolloutPercent: row.rollout_percent,
    createdAt: row.created_at,
  };
}

export function agentVersionRows(
  db: Db,
  filter: { platform?: AgentPlatform | undefined; arch?: AgentArch | undefined } = {},
): AgentVersionRow[] {
  const rows = db
    .prepare(
      `SELECT ${BUILD_COLUMNS} FROM ${BUILDS}
       WHERE (@platform IS NULL OR platform = @platform) AND (@arch IS NULL OR architecture = @arch)`,
    )
    .all({ platform: filter.platform ?? null, arch: filter.arch ?? null }) as AgentVersionRow[];
  return rows.sort(newestFirst);
}

export function agentVersionById(db: Db, id: string): AgentVersionRow | undefined {
  return db.prepare(`SELECT ${BUILD_COLUMNS} FROM ${BUILDS} WHERE v.id = ?`).get(id) as
    AgentVersionRow | undefined;
}

export function findAgentVersion(
  db: Db,
  version: string,
  platform: AgentPlatform,
  arch: AgentArch,
): AgentVersionRow | undefined {
  return db
    .prepare(
      `SELECT ${BUILD_COLUMNS} FROM ${BUILDS} WHERE v.version = ? AND platform = ? AND architecture = ?`,
    )
    .get(version, platform, arch) as AgentVersionRow | undefined;
}

/** The latest build of a pair, of one side of it, or of everything: the highest version among latest rows. */
export function latestAgentVersionRow(
  db: Db,
  filter: {
    platform?: AgentPlatform | undefined;
    arch?: AgentArch | undefined;
  },
): AgentVersionRow | null {
  const rows = db
    .prepare(
      `SELECT ${BUILD_COLUMNS} FROM ${BUILDS} WHERE is_latest = 1
         AND (@platform IS NULL OR platform = @platform) AND (@arch IS NULL OR architecture = @arch)`,
    )
    .all({ platform: filter.platform ?? null, arch: filter.arch ?? null }) as AgentVersionRow[];
  return rows.sort(newestFirst)[0] ?? null;
}

/** The build a heartbeat offers for this pair (read on every heartbeat: a cached statement). */
export function latestAgentVersionOf(
  db: Db,
  platform: AgentPlatform,
  arch: AgentArch,
): AgentVersionRow | undefined {
  return statement(
    db,
    `SELECT ${BUILD_COLUMNS} FROM ${BUILDS} WHERE platform = ? AND architecture = ? AND is_latest = 1`,
  ).get(platform, arch) as AgentVersionRow | undefined;
}

/** Inserts a build; the caller runs it inside a transaction together with {@link recomputeLatestAgentVersion}. */
export function insertAgentVersion(db: Db, input: NewAgentVersion, at = new Date().toISOString()): string {
  const id = randomUUID();
  db.prepare(
    `INSERT INTO agent_versions (id, version, platform, architecture, download_url, file_path, checksum,
         size_bytes, source, release_notes, is_latest, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  ).run(
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
export function updateAgentVersionFile(
  db: Db,
  id: string,
  file: { filePath: string; checksum: string; sizeBytes: number },
): void {
  db.prepare('UPDATE agent_versions SET file_path = ?, checksum = ?, size_bytes = ? WHERE id = ?').run(
    file.filePath,
    file.checksum,
    file.sizeBytes,
    id,
  );
}

/** The local copy of a registered build is gone (or wrong): downloads fall back to its URL. */
export function detachAgentVersionFile(db: Db, id: string): void {
  db.prepare('UPDATE agent_versions SET file_path = NULL WHERE id = ?').run(id);
}

export function deleteAgentVersion(db: Db, id: string): void {
  db.prepare('DELETE FROM agent_versions WHERE id = ?').run(id);
}

/**
 * Marks the highest version of the pair as its only latest row. Versions compare numerically (compareVersions),
 * which SQL cannot do on text, so the winner is picked here; the pair holds a handful of rows.
 */
export function recomputeLatestAgentVersion(db: Db, platform: AgentPlatform, arch: AgentArch): void {
  const rows = db
    .prepare('SELECT id, version FROM agent_versions WHERE platform = ? AND architecture = ?')
    .all(platform, arch) as Array<{ id: string; version: string }>;
  const winner = rows.sort((a, b) => compareVersions(b.version, a.version))[0];
  db.prepare('UPDATE agent_versions SET is_latest = (id = ?) WHERE platform = ? AND architecture = ?').run(
    winner?.id ?? '',
    platform,
    arch,
  );
}

/** Whether any build of the version is registered (a rollout is set per version, across its platforms). */
export function versionRegistered(db: Db, version: string): boolean {
  return db.prepare('SELECT 1 FROM agent_versions WHERE version = ? LIMIT 1').get(version) !== undefined;
}

export function rolloutPercentOf(db: Db, version: string): number {
  const row = db.prepare('SELECT percent FROM agent_version_rollouts WHERE version = ?').get(version) as
    { percent: number } | undefined;
  return row?.percent ?? 100;
}

export function upsertRollout(db: Db, version: string, percent: number, by: string, at: string): void {
  db.prepare(
    `INSERT INTO agent_version_rollouts (version, percent, updated_at, updated_by) VALUES (?, ?, ?, ?)
     ON CONFLICT (version) DO UPDATE SET percent = excluded.percent, updated_at = excluded.updated_at,
       updated_by = excluded.updated_by`,
  ).run(version, percent, at, by);
}
