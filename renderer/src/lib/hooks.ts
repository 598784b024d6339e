import { useCallback, useEffect, useRef, useState } from 'react';
import type { DialogProps } from '../ui/Dialog';
import { useAsyncAction } from './action';

/** The current time, re-read every `intervalMs`. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Gatehouse` : 'Gatehouse';
  }, [title]);
}

/** `value`, once it has stopped changing for `ms` (search boxes: one request per pause, not per key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A function that runs `fn` `ms` after its last call, so a burst of calls is one run; nothing runs once the
 * calling component is gone.
 */
export function useDebouncedCallback(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  useEffect(() => {
    latest.current = fn;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(), ms);
  }, [ms]);
}

/**
 * What a dialog is open for (a row, 'new', true), or null when it is closed. `props(after)` is what the dialog
 * is opened with: its close, and its done, which closes it, then runs `after` with the result (reload the list,
 * go to what was made); without `after`, done only closes.
 */
export function useDialog<T>() {
  const [value, setValue] = useState<T | null>(null);
  const close = () => setValue(null);
  return {
    value,
    open: (next: T) => setValue(next),
    close,
    props: <R>(after?: (result: R) => void): DialogProps<R> => ({
      onClose: close,
      onDone: (result) => {
        close();
        after?.(result);
      },
    }),
  };
}

/**
 * The row a confirmation dialog (e.g. delete) acts on, with the write's busy/error. The dialog stays mounted for
 * every row, so opening it for a row clears the error the last one left.
 */
export function useTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const action = useAsyncAction();
  return {
    target,
    action,
    open: (value: T) => {
      action.reset();
      setTarget(value);
    },
    close: () => setTarget(null),
  };
}

/** A confirmed write to the row a dialog acts on: then the dialog closes and `after` runs (e.g. a reload). */
export function writeTarget<T>(
  dialog: ReturnType<typeof useTarget<T>>,
  write: (row: T) => Promise<unknown>,
  after: () => void,
): () => Promise<void> {
  return async () => {
    if (!dialog.target) return;
    await write(dialog.target);
    dialog.close();
    after();
  };
}

/**
 * Which dialog a screen shows. A native <dialog> fires `close` when React closes it too (e.g. create -> reveal):
 * `closeFor(kind)` only clears the modal that asked, or the reveal that replaced it would vanish with its key.
 */
export function useModal<M extends { kind: string }>() {
  const [modal, setModal] = useState<M | null>(null);
  const close = () => setModal(null);
  const closeFor = (kind: M['kind']) => () => setModal((m) => (m?.kind === kind ? null : m));
  return { modal, setModal, close, closeFor };
}

/** A set of ids ticked one at a time (a selection): `toggle` flips one, `set` replaces them all. */
export function useIdSet() {
  const [ids, set] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      set((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  return { ids, toggle, set };
}
