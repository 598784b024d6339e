import { sha256Hex, type SecretBox } from '../../../crypto';
import { badRequest } from '../../../http/errors';

// The export cursor: the last `seq` a page delivered, bound to the query it belongs to (caller, organization,
// window and filters) and sealed with the server's secret box. Sealing (AES-GCM) makes it opaque and
// tamper-evident: a changed byte fails authentication, and a sealed cursor from another query or another caller
// fails the binding check. Both answer the same 400, so a client learns nothing from the difference. `limit` and
// `format` are not bound: a client may change its page size or format between pages of the same export.

export const INVALID_CURSOR = 'Invalid cursor';
/** A sealed cursor is about 150 characters; anything far longer is not one, and is not worth decrypting. */
const MAX_CURSOR_LENGTH = 1024;

/** Everything that decides which rows an export query can return. */
export interface CursorBinding {
  userId: string;
  orgId: string;
  /** Normalized to ISO UTC, so equal instants written with different offsets bind alike. */
  from: string;
  to: string;
  siteId: string | null;
  deviceId: string | null;
  elevationRequestId: string | null;
  eventType: string | null;
}

interface SealedCursor {
  v: 1;
  seq: number;
  b: string;
}

function bindingHash(binding: CursorBinding): string {
  return sha256Hex(
    JSON.stringify([
      'elevation-audit-export',
      binding.userId,
      binding.orgId,
      binding.from,
      binding.to,
      binding.siteId,
      binding.deviceId,
      binding.elevationRequestId,
      binding.eventType,
    ]),
  );
}

export function encodeCursor(box: SecretBox, seq: number, binding: CursorBinding): string {
  const payload: SealedCursor = { v: 1, seq, b: bindingHash(binding) };
  return box.seal(JSON.stringify(payload));
}

/** The `seq` a cursor resumes after, or 400 `Invalid cursor` for anything forged, damaged or foreign. */
export function decodeCursor(box: SecretBox, cursor: string, binding: CursorBinding): number {
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalidCursor();
  let payload: unknown;
  try {
    payload = JSON.parse(box.open(cursor));
  } catch {
    throw invalidCursor();
  }
  const p = payload as Partial<SealedCursor> | null;
  if (
    typeof p !== 'object' ||
    p === null ||
    p.v !== 1 ||
    typeof p.seq !== 'number' ||
    !Number.isSafeInteger(p.seq) ||
    p.seq < 0 ||
    p.b !== bindingHash(binding)
  ) {
    throw invalidCursor();
  }
  return p.seq;
}

const invalidCursor = () => badRequest(INVALID_CURSOR, 'INVALID_CURSOR');
