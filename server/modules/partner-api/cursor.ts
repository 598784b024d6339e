import { badRequest } from '../../http/errors';
import type { KeysetPosition } from '../tenancy';

// The cursor of /partner-api lists: the (createdAt, id) of the last row a page delivered, base64url-encoded. It
// only says where to resume inside the caller's own rows (every query is bound to the key's partner), so it
// needs no seal: a forged cursor can only skip within what the caller may read anyway.

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): KeysetPosition | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string'))
      return { createdAt: value[0] as string, id: value[1] as string };
  } catch {
    // fall through to the refusal
  }
  throw badRequest('Invalid cursor', 'INVALID_CURSOR');
}

/** A page from `limit + 1` rows: the extra row only says there is more. */
export function cursorPage<Row extends { created_at: string; id: string }, T>(
  rows: Row[],
  limit: number,
  shape: (row: Row) => T,
): { data: T[]; nextCursor: string | null; hasMore: boolean } {
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(shape),
    nextCursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    hasMore,
  };
}
