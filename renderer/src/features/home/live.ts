import { useEffect, useRef } from 'react';
import { queryClient } from '../../lib/query';
import { useLiveEvent } from '../../lib/live/useLiveEvent';
import { homeKeys } from './api';

// The Overview follows the console socket: a new or decided elevation, a device coming or going, an audit entry
// re-read the dashboard. Pushes arrive in bursts (a fleet of agents, a bulk decision), so the re-read is
// throttled: at once for the first push, then at most once a second while they keep coming.

const THROTTLE_MS = 1000;

function useThrottled(run: () => void, ms: number): () => void {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return () => {
    if (timer.current) return; // a re-read is already scheduled: it will see this push too
    const wait = last.current + ms - Date.now();
    const fire = () => {
      timer.current = null;
      last.current = Date.now();
      run();
    };
    if (wait <= 0) fire();
    else timer.current = setTimeout(fire, wait);
  };
}

export function useDashboardLive(): void {
  const refresh = useThrottled(
    () => void queryClient.invalidateQueries({ queryKey: homeKeys.dashboard }),
    THROTTLE_MS,
  );
  useLiveEvent('elevation.*', refresh);
  useLiveEvent('device.*', refresh);
  // Agents' own reports (`agent.*`, telemetry every few seconds) are not in the recent activity card: a re-read
  // for each would cost the server a dashboard a second per open console for nothing.
  useLiveEvent('audit.created', (e) => {
    if (!e.data.action.startsWith('agent.')) refresh();
  });
}
