import { createHash } from 'node:crypto';
import { TransportError, type AgentHttp, type AnswerHeaders } from './transport';

// Agent self-update (spec 3, Versioning): download the binary, verify its SHA-256 against the checksum the server
// offered, and only then switch. A simulated "binary" is opaque bytes; switching means the agent adopts the new
// version and restarts (reconnects and reports it).

export type VerifiedDownload =
  | { ok: true; bytes: Buffer; checksum: string; version: string | null }
  | {
      ok: false;
      reason: 'download_failed' | 'checksum_mismatch' | 'bad_checksum';
      message: string;
      actual?: string;
    };

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The version a downloaded build reports: the server's `X-Agent-Version` header, else the version in the
 * registry's download path (`/agent-versions/<version>/download`), else the release file name
 * (`gatehouse-agent-<version>-<platform>-<arch>`). `dev_update` needs this: its payload carries no version.
 */
export function versionOfDownload(url: string, headers: AnswerHeaders): string | null {
  const header = headers.get('x-agent-version')?.trim();
  if (header) return header;
  try {
    const path = decodeURIComponent(new URL(url, 'http://agent.invalid').pathname);
    const fromPath = /\/agent-versions\/([^/]+)\/download$/.exec(path)?.[1];
    if (fromPath) return fromPath;
    const fromName = /gatehouse-agent-(\d[^/]*?)-(?:windows|darwin|linux)-(?:amd64|arm64)/.exec(path)?.[1];
    if (fromName) return fromName;
  } catch {
    // not a URL we can read: fall through to the file name
  }
  const disposition = headers.get('content-disposition') ?? '';
  return (
    /gatehouse-agent-(\d[^"';]*?)-(?:windows|darwin|linux)-(?:amd64|arm64)/.exec(disposition)?.[1] ?? null
  );
}

export async function downloadVerified(
  http: AgentHttp,
  url: string,
  expectedChecksum: string,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<VerifiedDownload> {
  const expected = expectedChecksum.trim().toLowerCase();
  if (!SHA256_HEX.test(expected))
    return { ok: false, reason: 'bad_checksum', message: `the offered checksum is not a SHA-256 digest` };
  let answer: Awaited<ReturnType<AgentHttp['download']>>;
  try {
    answer = await http.download(url, { token, signal });
  } catch (err) {
    const why = err instanceof TransportError ? err.message : String(err);
    return { ok: false, reason: 'download_failed', message: `download failed: ${why}` };
  }
  if (answer.status < 200 || answer.status >= 300)
    return { ok: false, reason: 'download_failed', message: `download answered HTTP ${answer.status}` };
  const actual = sha256Hex(answer.bytes);
  if (actual !== expected)
    return {
      ok: false,
      reason: 'checksum_mismatch',
      message: `checksum mismatch: expected ${expected}, got ${actual}`,
      actual,
    };
  return { ok: true, bytes: answer.bytes, checksum: actual, version: versionOfDownload(url, answer.headers) };
}

/**
 * Remembers offers that failed so the agent does not fetch the same bad build on every heartbeat: the same
 * version and checksum are retried only after a growing pause (10 minutes, doubling, at most 6 hours).
 */
export class RefusedOffers {
  private readonly refused = new Map<string, { failures: number; retryAt: number }>();

  constructor(
    private readonly baseMs = 10 * 60_000,
    private readonly capMs = 6 * 3_600_000,
  ) {}

  private key(version: string, checksum: string): string {
    return `${version}\u0000${checksum.toLowerCase()}`;
  }

  blocked(version: string, checksum: string, now = Date.now()): boolean {
    const entry = this.refused.get(this.key(version, checksum));
    return entry !== undefined && now < entry.retryAt;
  }

  refuse(version: string, checksum: string, now = Date.now()): number {
    const key = this.key(version, checksum);
    const failures = (this.refused.get(key)?.failures ?? 0) + 1;
    const wait = Math.min(this.capMs, this.baseMs * 2 ** (failures - 1));
    this.refused.set(key, { failures, retryAt: now + wait });
    return wait;
  }

  clear(): void {
    this.refused.clear();
  }
}

/**
 * Dotted versions compared numerically (`1.10.0` > `1.9.3`); a pre-release (`1.2.0-rc.1`) sorts before its
 * release. The agent never moves to an older version, whatever it is offered.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.replace(/^v/, '').split('-', 2);
  const [coreB = '', preB] = b.replace(/^v/, '').split('-', 2);
  const partsA = coreA.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const partsB = coreB.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const diff = (partsA[i] ?? 0) - (partsB[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}
