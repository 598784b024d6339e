import { z } from 'zod';
import { CHECKSUM_PATTERN, VERSION_PATTERN } from './binaries';
import { AGENT_ARCHES, AGENT_PLATFORMS } from './store';

// Request shapes of /agent-versions and /agents/download (spec 3). Platform and architecture use the download
// vocabulary (`windows|darwin|linux`, `amd64|arm64`), as the spec's download paths do.

const PLATFORM_MESSAGE = 'must be windows, darwin or linux';
const ARCH_MESSAGE = 'must be amd64 or arm64';

const platform = (field: string) =>
  z.enum(AGENT_PLATFORMS, {
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} ${PLATFORM_MESSAGE}`),
  });
const arch = (field: string) =>
  z.enum(AGENT_ARCHES, {
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} ${ARCH_MESSAGE}`),
  });

const VERSION_MESSAGE = 'version must look like 1.4.0 or 1.4.0-rc.1';

/** A leading `v` (as in release tags) is accepted and dropped, so `v1.4.0` and `1.4.0` are one version. */
export const versionField = z
  .string({ error: 'version is required' })
  .trim()
  .transform((v) => v.replace(/^v/, ''))
  .pipe(z.string().max(50, VERSION_MESSAGE).regex(VERSION_PATTERN, VERSION_MESSAGE));

export const versionFilterQuery = z.object({
  platform: platform('platform').optional(),
  arch: arch('arch').optional(),
});

export const downloadParams = z.object({ version: versionField });
export const downloadQuery = z.object({ platform: platform('platform'), arch: arch('arch') });

export const agentDownloadParams = z.object({ os: platform('os'), arch: arch('arch') });

const CHECKSUM_MESSAGE = 'checksum must be a SHA-256 checksum (64 hexadecimal characters)';

export const createAgentVersionBody = z.object({
  version: versionField,
  platform: platform('platform'),
  architecture: arch('architecture'),
  downloadUrl: z
    .string({ error: 'downloadUrl is required' })
    .trim()
    .max(2048, 'downloadUrl must be at most 2048 characters')
    .pipe(z.url({ protocol: /^https$/, error: 'downloadUrl must be an https URL' })),
  checksum: z
    .string({ error: 'checksum is required' })
    .trim()
    .toLowerCase()
    .regex(CHECKSUM_PATTERN, CHECKSUM_MESSAGE),
  releaseNotes: z
    .string({ error: 'releaseNotes must be a string' })
    .max(10_000, 'releaseNotes must be at most 10000 characters')
    .nullable()
    .optional(),
});

export type CreateAgentVersionBody = z.infer<typeof createAgentVersionBody>;

export const rolloutParams = z.object({ version: versionField });

const PERCENT_MESSAGE = 'percent must be a whole number from 0 to 100';

/** A staged rollout: the share of eligible devices offered the version; 0 pauses it, 100 offers it to all. */
export const rolloutBody = z.object({
  percent: z
    .number({ error: (issue) => (issue.input === undefined ? 'percent is required' : PERCENT_MESSAGE) })
    .int(PERCENT_MESSAGE)
    .min(0, PERCENT_MESSAGE)
    .max(100, PERCENT_MESSAGE),
});
