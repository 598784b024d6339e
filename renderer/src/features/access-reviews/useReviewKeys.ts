import { useEffect, useRef } from 'react';

// The review screen's keyboard: j/k or the arrows move between people, a / r / u decide the current person,
// x selects them, n opens their notes, Shift+A / Shift+R decide the selection. Keys typed into a field, with a
// modifier, or while a dialog is open are left alone.

export type ReviewKey = 'a' | 'r' | 'u' | 'x' | 'n' | 'A' | 'R';

const MOVES: Record<string, number> = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 };
const ACTIONS: ReadonlySet<string> = new Set(['a', 'r', 'u', 'x', 'n', 'A', 'R']);

function typingOrBusy(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (target?.closest('input:not([type=checkbox]), textarea, select, [contenteditable="true"]')) return true;
  return document.querySelector('dialog[open]') !== null;
}

export function useReviewKeys(options: {
  enabled: boolean;
  move: (by: number) => void;
  act: (key: ReviewKey) => void;
}): void {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { enabled, move, act } = latest.current;
      if (!enabled || typingOrBusy(event)) return;
      const by = MOVES[event.key];
      if (by !== undefined) {
        event.preventDefault();
        move(by);
      } else if (ACTIONS.has(event.key)) {
        event.preventDefault();
        act(event.key as ReviewKey);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
