import { useEffect, useRef } from 'react';
import type { ConsoleEventName } from '../../../../server/contract';
import { onLiveEvent, type EventsOf, type LiveEventOf, type LiveFamily } from './socket';

/**
 * Runs `handler` for every push of `name` (an event name, or a family such as `elevation.*`) while the calling
 * component is mounted. The handler gets the typed event (`event.data` is that event's ConsoleEventMap payload);
 * the latest handler is always the one called, so it may close over current state.
 */
export function useLiveEvent<P extends ConsoleEventName | LiveFamily>(
  name: P,
  handler: (event: LiveEventOf<EventsOf<P>>) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onLiveEvent(name, (event) => latest.current(event)), [name]);
}
