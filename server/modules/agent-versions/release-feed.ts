import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Request } from 'express';
import { z } from 'zod';
import { ConfigError } from '../../config';
import type { AppContext } from '../../context';
import type { AgentVersionSyncResult } from '../../contract';
import type { UserAuth } from '../../http/auth-context';
import { HttpError } from '../../http/errors';
import { SERVER_VERSION } from '../../version';
import { auditCaller } from '../audit';
import { CHECKSUM_PATTERN, parseAgentBinaryName, VERSION_PATTERN } from './binaries';
import { requireSystemScope } from './service';
import {
  AGENT_ARCHES,
  AGENT_PLATFORMS,
  agentVersionById,
  findAgentVersion,
  insertAgentVersion,
  recomputeLatestAgentVersion,
  toAgentVersion,
} from './store';
import { transaction } from '../../db/after-commit';

// `POST /agent-versions/sync-github` (spec 3): registers the latest published release of the agent for every
// platform and architecture it ships. Nothing is registered unless the release's artifact manifest carries a
// valid Ed25519 signature by one of the pinned keys in RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS: a compromised
// release page or feed must not be able to push a binary to every agent.
//
// The feed is GitHub's "latest release" document (`tag_name`, `body`, `assets[{name, browser_download_url}]`).
// The release carries two assets besides the binaries:
//   gatehouse-agent-manifest.json      {version, artifacts: [{platform, arch, file, sha256, size?}]}
//   gatehouse-agent-manifest.json.sig  the Ed25519 signature of the manifest's exact bytes (base64 or raw)
// Checksums come from the signed manifest, never from the feed. Binaries are not downloaded here: agents fetch
// them from their registered URL and verify the checksum themselves.
//
// Order of refusals: in production a missing trust anchor is refused before anything is fetched (there is no
// point contacting a feed whose answer cannot be trusted). Elsewhere the feed is contacted first, so a demo or
// test room learns whether it can reach the feed at all, and the missing anchor is reported after that.

export const MANIFEST_ASSET = 'gatehouse-agent-manifest.json';
export const SIGNATURE_ASSET = `${MANIFEST_ASSET}.sig`;
const FEED_TIMEOUT_MS = 10_000;
const MAX_RELEASE_BYTES = 1024 * 1024;
const MAX_MANIFEST_BYTES = 256 * 1024;
const MAX_SIGNATURE_BYTES = 1024;

// DER prefix of an Ed25519 SubjectPublicKeyInfo; followed by the raw 32-byte key.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function parsePublicKey(text: string): KeyObject {
  const value = text.trim();
  let key: KeyObject;
  if (value.startsWith('-----BEGIN')) {
    key = createPublicKey(value);
  } else {
    if (!/^[0-9A-Za-z+/=_-]+$/.test(value)) throw new Error('not base64, hex or PEM');
    const raw = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    const der = raw.length === 32 ? Buffer.concat([ED25519_SPKI_PREFIX, raw]) : raw;
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/**
 * The pinned keys: each an Ed25519 public key as PEM, base64 SPKI DER, or the raw 32 bytes in base64 or hex.
 * A key that does not parse stops the server at start (see prepareAgentVersions) instead of failing every sync.
 */
export function parseTrustAnchors(values: readonly string[]): KeyObject[] {
  return values.map((value, i) => {
    try {
      return parsePublicKey(value);
    } catch (err) {
      throw new ConfigError(
        `Invalid configuration: RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS entry ${i + 1} is not an Ed25519 public key (${(err as Error).message})`,
      );
    }
  });
}

const feedError = (status: number, code: string, message: string, feedUrl: string) =>
  new HttpError(status, message, code, { feedUrl });

const trustAnchorMissing = () =>
  new HttpError(
    503,
    'Release artifacts cannot be verified: RELEASE_ARTIFACT_MANIFEST_PUBLIC_KEYS is not configured',
    'RELEASE_TRUST_ANCHOR_MISSING',
  );

/** Fetches a document with a byte limit; network failures and the deadline are "unreachable". */
async function fetchLimited(
  url: string,
  feedUrl: string,
  signal: AbortSignal,
  maxBytes: number,
  accept: string,
): Promise<Buffer> {
  const unreachable = (err: unknown) => {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const reason = signal.aborted ? 'timeout' : (cause ?? (err as Error).name);
    return new HttpError(503, 'The release feed could not be reached', 'RELEASE_FEED_UNREACHABLE', {
      feedUrl,
      reason,
    });
  };
  let res: globalThis.Response;
  try {
    res = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept, 'user-agent': `gatehouse/${SERVER_VERSION}` },
    });
  } catch (err) {
    throw unreachable(err);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw feedError(502, 'RELEASE_FEED_ERROR', `The release feed answered HTTP ${res.status}`, feedUrl);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).byteLength;
      if (total > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw feedError(
          502,
          'RELEASE_FEED_INVALID',
          'The release feed sent a document that is too large',
          feedUrl,
        );
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw unreachable(err);
  }
  return Buffer.concat(chunks);
}

const releaseSchema = z.object({
  tag_name: z.string().min(1).max(100),
  body: z.string().nullish(),
  assets: z
    .array(z.object({ name: z.string().min(1).max(255), browser_download_url: z.string().min(1).max(2048) }))
    .max(500),
});

const manifestSchema = z.object({
  version: z.string().max(50).regex(VERSION_PATTERN),
  artifacts: z
    .array(
      z.object({
        platform: z.enum(AGENT_PLATFORMS),
        arch: z.enum(AGENT_ARCHES),
        file: z.string().min(1).max(255),
        sha256: z.string().toLowerCase().regex(CHECKSUM_PATTERN),
        size: z.number().int().nonnegative().optional(),
      }),
    )
    .min(1)
    .max(AGENT_PLATFORMS.length * AGENT_ARCHES.length),
});

function parseJson<T>(bytes: Buffer, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/** A detached signature: 64 raw bytes, or their base64 text. */
function decodeSignature(bytes: Buffer): Buffer {
  if (bytes.length === 64) return bytes;
  return Buffer.from(bytes.toString('utf8').trim(), 'base64');
}

/** The feed address as shown in errors and the audit log: without credentials or query (a private feed's token). */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

export async function syncFromReleaseFeed(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
): Promise<AgentVersionSyncResult> {
  requireSystemScope(auth);
  const feedUrl = displayUrl(ctx.config.agentReleaseFeedUrl);
  const anchors = parseTrustAnchors(ctx.config.releaseManifestPublicKeys);
  if (anchors.length === 0 && ctx.config.production) throw trustAnchorMissing();

  // One deadline for the whole exchange: the caller is waiting on an HTTP request.
  const signal = AbortSignal.timeout(FEED_TIMEOUT_MS);
  const release = parseJson(
    await fetchLimited(
      ctx.config.agentReleaseFeedUrl,
      feedUrl,
      signal,
      MAX_RELEASE_BYTES,
      'application/vnd.github+json',
    ),
    releaseSchema,
  );
  if (!release)
    throw feedError(
      502,
      'RELEASE_FEED_INVALID',
      'The release feed sent a document that is not a release',
      feedUrl,
    );
  if (anchors.length === 0) throw trustAnchorMissing();

  const assets = new Map(release.assets.map((a) => [a.name, a.browser_download_url]));
  const manifestUrl = assets.get(MANIFEST_ASSET);
  const signatureUrl = assets.get(SIGNATURE_ASSET);
  if (!manifestUrl || !signatureUrl)
    throw feedError(
      502,
      'RELEASE_MANIFEST_MISSING',
      `Release ${release.tag_name} has no signed artifact manifest (${MANIFEST_ASSET} and ${SIGNATURE_ASSET})`,
      feedUrl,
    );
  const manifestBytes = await fetchLimited(
    manifestUrl,
    feedUrl,
    signal,
    MAX_MANIFEST_BYTES,
    'application/octet-stream',
  );
  const signature = decodeSignature(
    await fetchLimited(signatureUrl, feedUrl, signal, MAX_SIGNATURE_BYTES, 'application/octet-stream'),
  );
  const trusted = anchors.some((key) => {
    try {
      return verify(null, manifestBytes, key, signature);
    } catch {
      return false;
    }
  });
  if (!trusted)
    throw feedError(
      502,
      'RELEASE_MANIFEST_UNTRUSTED',
      `The artifact manifest of release ${release.tag_name} is not signed by a trusted key`,
      feedUrl,
    );

  const manifest = parseJson(manifestBytes, manifestSchema);
  const invalid = (why: string) =>
    feedError(
      502,
      'RELEASE_MANIFEST_INVALID',
      `The artifact manifest of release ${release.tag_name} ${why}`,
      feedUrl,
    );
  if (!manifest) throw invalid('is malformed');
  if (manifest.version !== release.tag_name.replace(/^v/, ''))
    throw invalid(`names version ${manifest.version}`);
  const pairs = new Set<string>();
  const builds = manifest.artifacts.map((artifact) => {
    const pair = `${artifact.platform}/${artifact.arch}`;
    if (pairs.has(pair)) throw invalid(`lists ${pair} twice`);
    pairs.add(pair);
    const named = parseAgentBinaryName(artifact.file);
    if (
      !named ||
      named.version !== manifest.version ||
      named.platform !== artifact.platform ||
      named.arch !== artifact.arch
    )
      throw invalid(`lists ${artifact.file} for ${pair}`);
    const url = assets.get(artifact.file);
    if (!url) throw invalid(`lists ${artifact.file}, which the release does not hold`);
    if (!isHttps(url)) throw invalid(`points ${artifact.file} at a non-https address`);
    return { ...artifact, url };
  });

  const releaseNotes = release.body ? release.body.slice(0, 10_000) : null;
  const { registered, unchanged } = transaction(ctx.db, () => {
    const ids: string[] = [];
    let same = 0;
    for (const build of builds) {
      const existing = findAgentVersion(ctx.db, manifest.version, build.platform, build.arch);
      if (existing) {
        if (existing.checksum === build.sha256) {
          same++;
          continue;
        }
        // The same version with other bytes is either a re-published release or tampering: an operator decides.
        throw new HttpError(
          409,
          `Agent version ${manifest.version} for ${build.platform}/${build.arch} is already registered with another checksum`,
          'RELEASE_CHECKSUM_CONFLICT',
          { registered: existing.checksum, published: build.sha256 },
        );
      }
      ids.push(
        insertAgentVersion(ctx.db, {
          version: manifest.version,
          platform: build.platform,
          architecture: build.arch,
          downloadUrl: build.url,
          filePath: null,
          checksum: build.sha256,
          sizeBytes: build.size ?? null,
          source: 'github',
          releaseNotes,
        }),
      );
      recomputeLatestAgentVersion(ctx.db, build.platform, build.arch);
    }
    return { registered: ids, unchanged: same };
  });

  auditCaller(ctx, req, auth, {
    orgId: null,
    action: 'agent_version.sync',
    resourceType: 'agent_version',
    resourceId: null,
    resourceName: manifest.version,
    details: { version: manifest.version, feedUrl, registered: registered.length, unchanged },
  });
  ctx.log.info(
    { version: manifest.version, registered: registered.length, unchanged },
    'agent release synced',
  );
  return {
    version: manifest.version,
    registered: registered.map((id) => toAgentVersion(ctx, agentVersionById(ctx.db, id)!)),
    unchanged,
  };
}
