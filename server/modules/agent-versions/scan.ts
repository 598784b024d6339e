import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform } from '../../contract';
import { parseAgentBinaryName, sha256File } from './binaries';
import { parseTrustAnchors } from './release-feed';
import {
  AGENT_ARCHES,
  AGENT_PLATFORMS,
  agentVersionRows,
  deleteAgentVersion,
  detachAgentVersionFile,
  findAgentVersion,
  insertAgentVersion,
  recomputeLatestAgentVersion,
  updateAgentVersionFile,
} from './store';
import { transaction } from '../../db/after-commit';

// Start-up scan of the local binary directories (spec 3, Versioning): every
// `gatehouse-agent-<version>-<platform>-<arch>[.exe]` is registered with its SHA-256, and the highest version of
// each platform and architecture becomes its latest. Running it again changes nothing unless the files changed.

type ScanContext = Pick<AppContext, 'db' | 'log' | 'config'>;

export interface ScanResult {
  registered: number;
  updated: number;
  removed: number;
  ignored: number;
}

interface FoundBinary {
  path: string;
  version: string;
  platform: AgentPlatform;
  arch: AgentArch;
  checksum: string;
  sizeBytes: number;
}

/**
 * Binaries shipped with the app: `resources/agent-binaries` at the project root, found by walking up from this
 * module (sources: server/modules/agent-versions; bundle: out/main), or beside a packaged desktop app.
 */
export function bundledAgentBinariesDir(): string | null {
  const packaged = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  const candidates: string[] = packaged ? [join(packaged, 'agent-binaries')] : [];
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    candidates.push(join(dir, 'resources', 'agent-binaries'));
    if (existsSync(join(dir, 'package.json'))) break;
    dir = dirname(dir);
  }
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** Directories in increasing precedence: a build in DATA_DIR replaces the bundled build of the same name. */
export function agentBinaryDirs(config: AppContext['config']): string[] {
  const bundled = bundledAgentBinariesDir();
  return [...(bundled && bundled !== config.agentBinariesDir ? [bundled] : []), config.agentBinariesDir];
}

async function readDirectory(
  ctx: ScanContext,
  dir: string,
  found: Map<string, FoundBinary>,
): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') ctx.log.debug({ dir }, 'no agent binary directory');
    else ctx.log.warn({ dir, code }, 'agent binary directory cannot be read');
    return 0;
  }
  let ignored = 0;
  for (const name of names) {
    const path = join(dir, name);
    const parsed = parseAgentBinaryName(name);
    let size: number | null = null;
    try {
      const stat = statSync(path); // follows symlinks: a link to a binary counts as the binary
      if (stat.isFile()) size = stat.size;
    } catch {
      // a dangling link: reported as ignored below
    }
    if (!parsed || size === null) {
      ignored++;
      ctx.log.warn(
        { file: path },
        parsed
          ? 'ignored in the agent binary directory: not a readable file'
          : 'ignored in the agent binary directory: not named gatehouse-agent-<version>-<platform>-<arch>[.exe]',
      );
      continue;
    }
    try {
      const checksum = await sha256File(path);
      found.set(`${parsed.version}|${parsed.platform}|${parsed.arch}`, {
        path,
        ...parsed,
        checksum,
        sizeBytes: size,
      });
    } catch (err) {
      ignored++;
      ctx.log.warn({ file: path, code: (err as NodeJS.ErrnoException).code }, 'agent binary cannot be read');
    }
  }
  return ignored;
}

export async function scanAgentBinaries(
  ctx: ScanContext,
  dirs: string[] = agentBinaryDirs(ctx.config),
): Promise<ScanResult> {
  const found = new Map<string, FoundBinary>();
  let ignored = 0;
  // Hashing happens before the transaction: the database is never held while files are read.
  for (const dir of dirs) ignored += await readDirectory(ctx, dir, found);

  const result: ScanResult = { registered: 0, updated: 0, removed: 0, ignored };
  transaction(ctx.db, () => {
    const seen = new Set<string>();
    for (const file of found.values()) {
      const row = findAgentVersion(ctx.db, file.version, file.platform, file.arch);
      const label = { version: file.version, platform: file.platform, arch: file.arch, file: file.path };
      if (!row) {
        seen.add(
          insertAgentVersion(ctx.db, {
            ...file,
            architecture: file.arch,
            filePath: file.path,
            downloadUrl: null,
            source: 'scan',
            releaseNotes: null,
          }),
        );
        result.registered++;
        ctx.log.info({ ...label, checksum: file.checksum }, 'agent binary registered');
        continue;
      }
      seen.add(row.id);
      const same =
        row.checksum === file.checksum && row.file_path === file.path && row.size_bytes === file.sizeBytes;
      if (same) continue;
      if (row.source !== 'scan' && row.checksum !== file.checksum) {
        // A manual or GitHub registration pins its checksum; a local file with other bytes must not replace it.
        ctx.log.warn(
          { ...label, registered: row.checksum, actual: file.checksum },
          'agent binary does not match the checksum registered for its version; ignored',
        );
        if (row.file_path === file.path) detachAgentVersionFile(ctx.db, row.id);
        continue;
      }
      if (row.checksum !== file.checksum)
        ctx.log.warn(
          { ...label, previous: row.checksum, checksum: file.checksum },
          'agent binary changed; checksum updated',
        );
      updateAgentVersionFile(ctx.db, row.id, {
        filePath: file.path,
        checksum: file.checksum,
        sizeBytes: file.sizeBytes,
      });
      result.updated++;
    }
    // Files that disappeared: a scanned build goes with its file; a registered one falls back to its URL.
    for (const row of agentVersionRows(ctx.db)) {
      if (seen.has(row.id) || !row.file_path) continue;
      if (row.source === 'scan') {
        deleteAgentVersion(ctx.db, row.id);
        result.removed++;
        ctx.log.warn(
          { version: row.version, platform: row.platform, arch: row.architecture, file: row.file_path },
          'agent binary gone; unregistered',
        );
      } else {
        detachAgentVersionFile(ctx.db, row.id);
      }
    }
    for (const platform of AGENT_PLATFORMS)
      for (const arch of AGENT_ARCHES) recomputeLatestAgentVersion(ctx.db, platform, arch);
  });
  if (result.registered || result.updated || result.removed)
    ctx.log.info({ ...result, dirs }, 'agent binaries scanned');
  return result;
}

/**
 * Start-up work of the registry, after migrations: the trust anchor is checked (a malformed key stops the
 * server, so a sync never discovers it later) and the binary directories are scanned.
 */
export async function prepareAgentVersions(ctx: ScanContext): Promise<ScanResult> {
  const anchors = parseTrustAnchors(ctx.config.releaseManifestPublicKeys);
  if (anchors.length === 0 && ctx.config.production)
    ctx.log.warn(
      'RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS is not set: agent releases cannot be synced from the release feed',
    );
  return scanAgentBinaries(ctx);
}
