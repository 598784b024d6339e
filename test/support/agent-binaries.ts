import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentArch, AgentPlatform } from '../../server/contract';
import { agentBinaryFileName } from '../../server/modules/agent-versions/binaries';

// Agent "binaries" for tests and the simulator: small files named as the registry expects
// (`gatehouse-agent-<version>-<platform>-<arch>[.exe]`), written into a temporary AGENT_BINARIES_DIR.

export function writeAgentBinary(
  dir: string,
  version: string,
  platform: AgentPlatform,
  arch: AgentArch,
  content: string | Buffer = `gatehouse-agent ${version} ${platform}/${arch}\n`,
): { path: string; checksum: string; size: number } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, agentBinaryFileName(version, platform, arch));
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  writeFileSync(path, bytes, { mode: 0o755 });
  return { path, checksum: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
