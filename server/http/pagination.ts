import { z } from 'zod';
import type { Pagination } from '../contract';

// The one pagination helper (spec 1 conventions): `page` and `limit` arrive as strings; defaults 1 and 50;
// out-of-range values are clamped rather than refused.

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

const clampedInt = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((raw) => {
      const n = raw === undefined ? NaN : Number.parseInt(raw, 10);
      if (!Number.isFinite(n)) return fallback;
      return Math.min(max, Math.max(min, n));
    });

/** Spread into a query schema: `z.object({ ...paginationQuery(), status: ... })`. */
export function paginationQuery(options: { defaultLimit?: number; maxLimit?: number } = {}) {
  const max = options.maxLimit ?? MAX_LIMIT;
  return {
    page: clampedInt(1, 1, Number.MAX_SAFE_INTEGER),
    limit: clampedInt(options.defaultLimit ?? DEFAULT_LIMIT, 1, max),
  };
}

export interface PageRequest {
  page: number;
  limit: number;
}

export function pageOffset({ page, limit }: PageRequest): number {
  return (page - 1) * limit;
}

export function paginated<T>(
  data: T[],
  request: PageRequest,
  total: number,
): { data: T[]; pagination: Pagination } {
  return { data, pagination: { page: request.page, limit: request.limit, total } };
}
