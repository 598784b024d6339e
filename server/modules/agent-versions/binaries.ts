import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AgentArch, AgentPlatform } from '../../contract';

// Names and checksums of agent binaries. The file name is the registry key on disk:
// `gatehouse-agent-<version>-<platform>-<arch>[.exe]`, e.g. `gatehouse-agent-1.4.0-linux-amd64`.

/** MAJOR.MINOR.PATCH with an optional pre-release (`1.4.0`, `2.0.0-rc.1`); at most 50 characters (schema). */
export const VERSION_PATTERN = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?$/;
export const CHECKSUM_PATTERN = /^[0-9a-f]{64}$/;

const FILE_NAME = /^gatehouse-agent-(.+)-(windows|darwin|linux)-(amd64|arm64)(\.exe)?$/;

export interface AgentBinaryName {
  version: string;
  platform: AgentPlatform;
  arch: AgentArch;
}

/** The file name a build is stored under (`.exe` for Windows). */
export function agentBinaryFileName(version: string, platform: AgentPlatform, arch: AgentArch): string {
  return `gatehouse-agent-${version}-${platform}-${arch}${platform === 'windows' ? '.exe' : ''}`;
}

/** Parses a binary's file name, or null for anything else (including `.exe` on a non-Windows build). */
export function parseAgentBinaryName(name: string): AgentBinaryName | null {
  const match = FILE_NAME.exec(name);
  if (!match) return null;
  const [, version = '', platform, arch, exe] = match;
  if (version.length > 50 || !VERSION_PATTERN.test(version)) return null;
  if (exe && platform !== 'windows') return null;
  return { version, platform: platform as AgentPlatform, arch: arch as AgentArch };
}

/** SHA-256 of a file, read as a stream so a large binary never sits in memory whole. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
