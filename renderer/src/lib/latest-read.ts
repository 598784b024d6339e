import { useEffect, useRef, useState } from 'react';

// A read that follows an edit as it happens (live previews): asked `debounceMs` after the input last changed, the
// latest input wins (an answer for an older one is dropped), and the last answer stays on screen meanwhile.

export interface LatestRead<T> {
  data: T | null;
  error: unknown;
  /** A request for the current input is waiting or in flight. */
  pending: boolean;
  /** The shown answer belongs to an earlier input. */
  stale: boolean;
}

interface Answer<T> {
  key: string;
  data: T | null;
  error: unknown;
}

/** `input` null: not sendable yet (the last answer stays). `read` may change between renders; the latest is used. */
export function useLatestRead<I, T>(
  input: I | null,
  read: (input: I, signal: AbortSignal) => Promise<T>,
  debounceMs: number,
): LatestRead<T> {
  const key = input === null ? null : JSON.stringify(input);
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const latest = useRef(read);
  useEffect(() => {
    latest.current = read;
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      latest.current(JSON.parse(key) as I, controller.signal).then(
        (data) => setAnswer({ key, data, error: null }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setAnswer((prev) => ({ key, data: prev?.data ?? null, error }));
        },
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, debounceMs]);

  const current = answer !== null && answer.key === key;
  return {
    data: answer?.data ?? null,
    error: current ? answer.error : null,
    pending: key !== null && !current,
    stale: answer !== null && !current,
  };
}
