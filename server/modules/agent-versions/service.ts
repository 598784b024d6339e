import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { AgentArch, AgentPlatform, AgentVersion, AgentVersionList } from '../../contract';
import type { UserAuth } from '../../http/auth-context';
import { conflict, forbidden, notFound } from '../../http/errors';
import { auditCaller } from '../audit';
import { agentBinaryFileName } from './binaries';
import type { CreateAgentVersionBody } from './schemas';
import {
  agentVersionById,
  agentVersionRows,
  findAgentVersion,
  insertAgentVersion,
  latestAgentVersionRow,
  recomputeLatestAgentVersion,
  toAgentVersion,
  type AgentVersionRow,
} from './store';
import { transaction } from '../../db/after-commit';

// Rules of the agent version registry (spec 3, Agent versions): reading is open to anyone who may read devices,
// registering is a platform administrator's job, downloads are public because agents fetch them with no user
// credential and verify the SHA-256 themselves.

export const CHECKSUM_HEADER = 'X-Checksum-Sha256';
export const VERSION_HEADER = 'X-Agent-Version';

const pairLabel = (platform: AgentPlatform, arch: AgentArch) => `${platform}/${arch}`;

/** Registering builds changes what every agent of the platform installs: a platform administrator's decision. */
export function requireSystemScope(auth: UserAuth): void {
  if (auth.scope !== 'system') throw forbidden('System scope required', 'SYSTEM_SCOPE_REQUIRED');
}

export function listAgentVersions(
  ctx: AppContext,
  filter: { platform?: AgentPlatform | undefined; arch?: AgentArch | undefined },
): AgentVersionList {
  return { data: agentVersionRows(ctx.db, filter).map((row) => toAgentVersion(ctx, row)) };
}

export function latestAgentVersion(
  ctx: AppContext,
  filter: { platform?: AgentPlatform | undefined; arch?: AgentArch | undefined },
): AgentVersion {
  const row = latestAgentVersionRow(ctx.db, filter);
  if (!row) {
    const scope = [filter.platform, filter.arch].filter(Boolean).join('/');
    throw notFound(scope ? `No agent version is registered for ${scope}` : 'No agent version is registered');
  }
  return toAgentVersion(ctx, row);
}

export function createAgentVersion(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: CreateAgentVersionBody,
): AgentVersion {
  requireSystemScope(auth);
  const id = transaction(ctx.db, () => {
    if (findAgentVersion(ctx.db, body.version, body.platform, body.architecture))
      throw conflict(
        `Agent version ${body.version} for ${pairLabel(body.platform, body.architecture)} is already registered`,
        'AGENT_VERSION_EXISTS',
      );
    const newId = insertAgentVersion(ctx.db, {
      version: body.version,
      platform: body.platform,
      architecture: body.architecture,
      downloadUrl: body.downloadUrl,
      filePath: null,
      checksum: body.checksum,
      sizeBytes: null,
      source: 'manual',
      releaseNotes: body.releaseNotes ?? null,
    });
    // Latest is the highest version: registering an older build never moves agents backwards.
    recomputeLatestAgentVersion(ctx.db, body.platform, body.architecture);
    return newId;
  });
  const row = agentVersionById(ctx.db, id)!;
  auditCaller(ctx, req, auth, {
    orgId: null,
    action: 'agent_version.create',
    resourceType: 'agent_version',
    resourceId: row.id,
    resourceName: `${row.version} ${pairLabel(row.platform, row.architecture)}`,
    details: {
      version: row.version,
      platform: row.platform,
      architecture: row.architecture,
      downloadUrl: row.download_url,
      checksum: row.checksum,
      isLatest: row.is_latest === 1,
    },
  });
  return toAgentVersion(ctx, row);
}

/**
 * Sends a build: the bytes when the binary is held here (with its registered checksum, which the agent checks;
 * a file altered on disk is served as it is and refused by the agent), else a redirect to its registered URL.
 */
export async function sendAgentBinary(
  ctx: AppContext,
  req: Request,
  res: Response,
  row: AgentVersionRow,
): Promise<void> {
  const label = { version: row.version, platform: row.platform, arch: row.architecture };
  let size: number | null = null;
  if (row.file_path) {
    try {
      const stat = statSync(row.file_path);
      if (stat.isFile()) size = stat.size;
    } catch {
      // handled below
    }
    if (size === null) ctx.log.error({ ...label, file: row.file_path }, 'registered agent binary is missing');
    else if (row.size_bytes !== null && row.size_bytes !== size)
      ctx.log.warn({ ...label, file: row.file_path }, 'agent binary changed on disk since it was registered');
  }
  const filePath = size === null ? null : row.file_path;
  if (!filePath || size === null) {
    if (!row.download_url)
      throw notFound(
        `Agent ${row.version} for ${pairLabel(row.platform, row.architecture)} is not available`,
      );
    res.set({ [CHECKSUM_HEADER]: row.checksum, [VERSION_HEADER]: row.version });
    res.redirect(302, row.download_url);
    return;
  }
  res.set({ [CHECKSUM_HEADER]: row.checksum, [VERSION_HEADER]: row.version });
  res.status(200).set({
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${agentBinaryFileName(row.version, row.platform, row.architecture)}"`,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await pipeline(createReadStream(filePath), res);
  } catch (err) {
    // The client went away, or the file vanished mid-read; pipeline has already closed the response.
    ctx.log.warn(
      { ...label, code: (err as NodeJS.ErrnoException).code },
      'agent binary download interrupted',
    );
  }
}

export async function downloadVersion(
  ctx: AppContext,
  req: Request,
  res: Response,
  version: string,
  platform: AgentPlatform,
  arch: AgentArch,
): Promise<void> {
  const row = findAgentVersion(ctx.db, version, platform, arch);
  if (!row) throw notFound(`Agent version ${version} for ${pairLabel(platform, arch)} not found`);
  await sendAgentBinary(ctx, req, res, row);
}

/** `GET /agents/download/:os/:arch`: the latest build of the pair, for installers. */
export async function downloadLatest(
  ctx: AppContext,
  req: Request,
  res: Response,
  platform: AgentPlatform,
  arch: AgentArch,
): Promise<void> {
  const row = latestAgentVersionRow(ctx.db, { platform, arch });
  if (!row) throw notFound(`No agent build is available for ${pairLabel(platform, arch)}`);
  await sendAgentBinary(ctx, req, res, row);
}
