import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createTurnTaker } from '../../server/http/turns';

// The turn taker shares request work out over turns of the event loop: within its budget a request starts at once;
// past it, requests wait in arrival order and later turns start them, so the loop gets back to its I/O (accepting
// connections) between them. "Turns" are observed with a chain of setImmediate, one link per turn of the loop.

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** Counts turns of the loop while `during` runs. */
function turnCounter(): { now: () => number; stop: () => void } {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    turns++;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => void (stopped = true) };
}

describe('the turn taker', () => {
  it('starts requests at once while the turn has budget', async () => {
    const turns = createTurnTaker(50);
    const started: number[] = [];
    for (let i = 0; i < 5; i++) turns.take(() => started.push(i));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(turns.wait()).toBeNull();
    expect(turns.waiting).toBe(0);
    await new Promise((r) => setImmediate(r));
  });

  it('leaves what exceeds the budget to later turns, in arrival order', async () => {
    const turns = createTurnTaker(5);
    const counter = turnCounter();
    const startedIn: Array<{ i: number; turn: number }> = [];
    for (let i = 0; i < 6; i++)
      turns.take(() => {
        startedIn.push({ i, turn: counter.now() });
        busy(3);
      });
    // Two fit the first turn (3 ms, then 6 ms > 5 ms); the rest wait.
    expect(startedIn.map((s) => s.i)).toEqual([0, 1]);
    expect(turns.waiting).toBe(4);
    while (turns.waiting > 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setImmediate(r));
    counter.stop();
    expect(startedIn.map((s) => s.i)).toEqual([0, 1, 2, 3, 4, 5]);
    // Never more than two in one turn: the loop turned between them.
    const perTurn = new Map<number, number>();
    for (const s of startedIn) perTurn.set(s.turn, (perTurn.get(s.turn) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(3);
  });

  it('releases waiting handlers one at a time, each measured before the next', async () => {
    const turns = createTurnTaker(5);
    turns.take(() => busy(6)); // spends this turn's budget
    const counter = turnCounter();
    const ranIn: number[] = [];
    const handler = async () => {
      await turns.wait();
      ranIn.push(counter.now());
      busy(4);
    };
    await Promise.all([handler(), handler(), handler(), handler()]);
    counter.stop();
    expect(ranIn).toHaveLength(4);
    // 4 ms each against a 5 ms budget: at most two per turn, so the four span at least two turns.
    expect(new Set(ranIn).size).toBeGreaterThanOrEqual(2);
    for (const turn of new Set(ranIn)) expect(ranIn.filter((t) => t === turn).length).toBeLessThanOrEqual(2);
  });
});
