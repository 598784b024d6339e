import { reconnectNow, useLive, type ConnectionState } from '../lib/live/socket';
import { formatDuration } from '../lib/format';
import { useNow } from '../lib/hooks';

const LABEL: Record<ConnectionState, string> = {
  live: 'Live',
  connecting: 'Connecting…',
  offline: 'Offline',
};

export function ConnectionIndicator() {
  const state = useLive((s) => s.state);
  const retryAt = useLive((s) => s.retryAt);
  const lastError = useLive((s) => s.lastError);
  const connectedAt = useLive((s) => s.connectedAt);
  const now = useNow(1000);

  let title = 'Live updates are flowing from the server.';
  if (state === 'live' && connectedAt)
    title = `Live updates connected ${formatDuration(now - connectedAt)} ago.`;
  if (state === 'connecting') title = 'Opening the live connection…';
  if (state === 'offline') {
    title = lastError ? `Live updates paused: ${lastError}.` : 'Live updates are not connected.';
    if (retryAt) title += ` Retrying in ${formatDuration(retryAt - now)}. Click to retry now.`;
  }

  return (
    <button
      type="button"
      className="conn"
      data-testid="connection-indicator"
      data-state={state}
      title={title}
      aria-live="polite"
      onClick={state === 'offline' ? reconnectNow : undefined}
    >
      <span className="conn-dot" aria-hidden="true" />
      <span className="conn-label">{LABEL[state]}</span>
      {state === 'offline' && retryAt ? (
        <span className="conn-retry">retry {formatDuration(Math.max(0, retryAt - now))}</span>
      ) : null}
    </button>
  );
}
