import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageOffset, paginated, paginationQuery } from '../../server/http/pagination';

const schema = z.object(paginationQuery());
const parse = (query: Record<string, string>) => schema.parse(query);

describe('pagination helper', () => {
  it('defaults to page 1, limit 50', () => expect(parse({})).toEqual({ page: 1, limit: 50 }));
  it('clamps out-of-range values instead of refusing them', () => {
    expect(parse({ page: '0', limit: '0' })).toEqual({ page: 1, limit: 1 });
    expect(parse({ page: '-5', limit: '1000' })).toEqual({ page: 1, limit: 100 });
    expect(parse({ page: 'abc', limit: 'xyz' })).toEqual({ page: 1, limit: 50 });
    expect(parse({ page: '3', limit: '25' })).toEqual({ page: 3, limit: 25 });
  });
  it('takes per-endpoint maxima', () => {
    const logs = z.object(paginationQuery({ defaultLimit: 100, maxLimit: 500 }));
    expect(logs.parse({ limit: '9999' })).toEqual({ page: 1, limit: 500 });
    expect(logs.parse({})).toEqual({ page: 1, limit: 100 });
  });
  it('computes offsets and the response shape', () => {
    expect(pageOffset({ page: 3, limit: 20 })).toBe(40);
    expect(paginated(['a'], { page: 2, limit: 1 }, 7)).toEqual({
      data: ['a'],
      pagination: { page: 2, limit: 1, total: 7 },
    });
  });
});
