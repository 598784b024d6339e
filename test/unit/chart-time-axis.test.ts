import { describe, expect, it } from 'vitest';
import { axisTime, MARKER_LIMIT, needsMarkers, timeRange, timeTicks } from '../../renderer/src/ui/time-axis';

// The time chart's pure choices (issue 16): a single point or a short series must still draw something and its
// time axis must not say the same minute twice.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const t0 = Date.UTC(2026, 10, 27, 9, 41, 17);

describe('time chart markers', () => {
  it('marks the points of a short series, and of a single point, but not of a long one', () => {
    expect(needsMarkers(1)).toBe(true);
    expect(needsMarkers(3)).toBe(true);
    expect(needsMarkers(MARKER_LIMIT)).toBe(true);
    expect(needsMarkers(MARKER_LIMIT + 1)).toBe(false);
    expect(needsMarkers(288)).toBe(false);
    expect(needsMarkers(0)).toBe(false);
  });
});

describe('time chart axis', () => {
  it('centres a single sample in a ten-minute span instead of a zero-width one', () => {
    expect(timeRange(t0, t0)).toEqual([t0 - 5 * MINUTE, t0 + 5 * MINUTE]);
    expect(timeRange(t0, t0 + 2 * HOUR)).toEqual([t0, t0 + 2 * HOUR]);
  });

  it('gives a short series whole, distinct minutes, each label said once', () => {
    // Three heartbeats 30 seconds apart: the span the axis shows is widened, the ticks are whole minutes.
    const [min, max] = timeRange(t0, t0 + MINUTE);
    for (const width of [240, 420, 640, 1200]) {
      const ticks = timeTicks(min, max, width, 64, 0);
      expect(ticks.length).toBeGreaterThan(1);
      expect(ticks.length).toBeLessThanOrEqual(Math.floor(width / 64));
      for (const t of ticks) {
        expect(t % MINUTE).toBe(0);
        expect(t).toBeGreaterThanOrEqual(min);
        expect(t).toBeLessThanOrEqual(max);
      }
      const labels = ticks.map(axisTime);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('puts a day-long axis on round local hours, leaving room between labels', () => {
    const ticks = timeTicks(t0, t0 + 24 * HOUR, 600, 64, 0);
    expect(ticks.length).toBeLessThanOrEqual(9);
    expect(ticks.every((t) => t % (3 * HOUR) === 0)).toBe(true);
    // The local clock: an offset of UTC+2 (getTimezoneOffset -120) rounds on that clock's hours instead.
    const shifted = timeTicks(t0, t0 + 24 * HOUR, 600, 64, -120);
    expect(shifted.every((t) => (t + 2 * HOUR) % (3 * HOUR) === 0)).toBe(true);
  });
});
