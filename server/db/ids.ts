import { randomBytes } from 'node:crypto';

// Ids for rows written in bulk (event and diagnostic logs, audit entries): UUID version 7 (RFC 9562), a 48-bit
// millisecond timestamp followed by 74 random bits. A random (version 4) id lands each new row on a random page of
// the table's id index, so a batch of 500 log rows dirtied hundreds of pages and its COMMIT wrote them all; ids
// that grow with time append at the index's right edge. They stay opaque to clients, and unguessable enough for
// ids that are never secrets.

export function timeOrderedId(nowMs = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
