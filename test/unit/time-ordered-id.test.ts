import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../server/db/ids';

// Bulk-written rows take UUID version 7 ids (RFC 9562): the time first, so later ids sort after earlier ones and
// new rows append at the end of the id index; 74 random bits keep ids of the same millisecond apart.

describe('timeOrderedId', () => {
  it('is a version 7, RFC 9562 variant UUID carrying its millisecond', () => {
    const at = Date.parse('2026-11-27T16:00:00.000Z');
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time, as text too, and never repeats within a millisecond', () => {
    const earlier = timeOrderedId(1_800_000_000_000);
    const later = timeOrderedId(1_800_000_000_001);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(1_800_000_000_000)));
    expect(same.size).toBe(10_000);
  });
});
