import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { BackupError } from './errors';
import { sealedSchema } from './seal';

// One backup is one file, so it is copied, renamed and pruned as a unit:
//
//   line 1   GATEHOUSE-BACKUP 1
//   line 2   the manifest, one line of JSON (what was copied, its SHA-256, the sealed secrets)
//   rest     the SQLite image, byte for byte (a rollback-journal database that opens on its own)
//
// Plain text up front keeps the file identifiable with `head -2`; the image is never parsed before its checksum
// and the sealed secrets' tag (which covers the checksum) have been checked.

export const MAGIC = 'GATEHOUSE-BACKUP 1';
/** The magic line and the manifest together never come near this; a larger head means a foreign file. */
const MAX_HEAD_BYTES = 64 * 1024;

const manifestSchema = z.object({
  createdAt: z.iso.datetime(),
  serverVersion: z.string().min(1).max(100),
  schemaVersion: z.number().int().min(1),
  database: z.object({
    bytes: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  secrets: sealedSchema,
});

export type Manifest = z.infer<typeof manifestSchema>;

/** What the sealed secrets' tag authenticates besides the secrets: everything that says what the image is. */
export function authenticatedData(m: Omit<Manifest, 'secrets'>): string {
  return JSON.stringify([
    MAGIC,
    m.createdAt,
    m.serverVersion,
    m.schemaVersion,
    m.database.bytes,
    m.database.sha256,
  ]);
}

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the container to `file` (which must not exist) and flushes it to disk. */
export async function writeContainer(file: string, manifest: Manifest, image: string): Promise<void> {
  const head = Buffer.from(`${MAGIC}\n${JSON.stringify(manifest)}\n`, 'utf8');
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  out.write(head);
  await pipeline(createReadStream(image), out);
  await fsyncFile(file);
}

/** The manifest and where the image starts; refuses anything that is not a whole backup of this format. */
export async function readContainerHead(file: string): Promise<{ manifest: Manifest; imageOffset: number }> {
  let size: number;
  const buffer = Buffer.alloc(MAX_HEAD_BYTES);
  let read: number;
  try {
    size = (await stat(file)).size;
    const handle = await open(file, 'r');
    try {
      ({ bytesRead: read } = await handle.read(buffer, 0, MAX_HEAD_BYTES, 0));
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupError(
      code === 'ENOENT' ? `No backup at ${file}` : `Cannot read ${file}: ${(err as Error).message}`,
      'BACKUP_SOURCE_MISSING',
    );
  }
  const first = buffer.indexOf(0x0a);
  const second = first < 0 ? -1 : buffer.indexOf(0x0a, first + 1);
  if (first < 0 || second < 0 || second >= read || buffer.toString('utf8', 0, first) !== MAGIC) {
    throw new BackupError(`${file} is not a Gatehouse backup`, 'BACKUP_INVALID');
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(buffer.toString('utf8', first + 1, second)));
  } catch {
    throw new BackupError(`${file} has an unreadable manifest`, 'BACKUP_INVALID');
  }
  const imageOffset = second + 1;
  if (size !== imageOffset + manifest.database.bytes) {
    throw new BackupError(
      `${file} is ${size < imageOffset + manifest.database.bytes ? 'truncated' : 'longer than its manifest says'}`,
      'BACKUP_CHECKSUM_MISMATCH',
    );
  }
  return { manifest, imageOffset };
}

/**
 * Copies the image out of the container to `dest` (created, never overwritten), hashing it on the way, and
 * refuses it unless it is exactly the image the manifest describes.
 */
export async function extractImage(
  file: string,
  head: { manifest: Manifest; imageOffset: number },
  dest: string,
): Promise<void> {
  const hash = createHash('sha256');
  await pipeline(
    createReadStream(file, { start: head.imageOffset }),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        yield chunk;
      }
    },
    createWriteStream(dest, { flags: 'wx', mode: 0o600 }),
  );
  if (hash.digest('hex') !== head.manifest.database.sha256) {
    throw new BackupError(
      'The database image does not match its checksum: the backup was altered or damaged',
      'BACKUP_CHECKSUM_MISMATCH',
    );
  }
  await fsyncFile(dest);
}
