// The session: access token in memory only; the refresh token lives in an HTTP-only cookie set by the server.
// A timer refreshes the pair about a minute before the access token runs out; on load the console tries the
// cookie to restore the session, then falls back to /login (or /setup on a fresh install).

import { create } from 'zustand';
import type { AuthUser, Scope, TokenPair } from '../../../server/contract';
import { ApiError, bindAuth, refreshWithCookie } from './api/client';
import { call } from './api/endpoints';
import { navigate } from './router';

export type SessionStatus = 'booting' | 'unreachable' | 'signedOut' | 'signedIn';

type RefreshOutcome = 'ok' | 'rejected' | 'unreachable';

interface SessionState {
  status: SessionStatus;
  accessToken: string | null;
  user: AuthUser | null;
  /** Whether the current access token carries `mfa: true`. */
  mfa: boolean;
  /** Epoch ms when the access token expires. */
  expiresAt: number | null;
  /** Epoch ms of the next scheduled silent refresh. */
  nextRefreshAt: number | null;
  /** Epoch ms of the sign-in that started this session (kept across refreshes). */
  signedInAt: number | null;
  lastRefreshAt: number | null;
  setupRequired: boolean;
  /** One-line message for the sign-in page (e.g. why the session ended). */
  notice: string | null;
  /** Where to go after signing in, when a guard sent the user to /login. */
  returnTo: string | null;

  boot: () => Promise<void>;
  /** Store a fresh token pair (login, MFA verify, setup, MFA enable, refresh). */
  acceptTokens: (pair: TokenPair) => void;
  setIdentity: (user: AuthUser, mfa?: boolean) => void;
  refresh: () => Promise<boolean>;
  signOut: () => Promise<void>;
  /** Forget the session locally (no server call). */
  clear: (notice?: string | null) => void;
  setReturnTo: (path: string | null) => void;
  setSetupRequired: (value: boolean) => void;
}

const REFRESH_LEAD_SECONDS = 60;
const RETRY_AFTER_NETWORK_ERROR_MS = 15_000;

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<RefreshOutcome> | null = null;
/** Bumped on every local sign-out, so a refresh that was in flight cannot sign the user back in. */
let epoch = 0;

const channel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('gatehouse-session');

/** The session fields that a sign-out resets; also the state before anyone signs in. */
const NO_SESSION = {
  accessToken: null,
  user: null,
  mfa: false,
  expiresAt: null,
  nextRefreshAt: null,
  signedInAt: null,
  lastRefreshAt: null,
} satisfies Partial<SessionState>;

function refreshDelaySeconds(expiresInSeconds: number): number {
  if (expiresInSeconds > REFRESH_LEAD_SECONDS * 2) return expiresInSeconds - REFRESH_LEAD_SECONDS;
  return Math.max(5, Math.floor(expiresInSeconds * 0.5));
}

function clearTimer(): void {
  if (refreshTimer !== undefined) clearTimeout(refreshTimer);
  refreshTimer = undefined;
}

/** Serialize refreshes across tabs: each one rotates the cookie, so two at once would race. */
async function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return fn();
  return locks.request('gatehouse-refresh', fn) as Promise<T>;
}

export const useSession = create<SessionState>((set, get) => {
  const schedule = (delayMs: number) => {
    clearTimer();
    set({ nextRefreshAt: Date.now() + delayMs });
    refreshTimer = setTimeout(() => {
      void runTimedRefresh();
    }, delayMs);
  };

  const runTimedRefresh = async () => {
    if (get().status !== 'signedIn') return;
    const outcome = await refreshSession();
    if (get().status !== 'signedIn') return;
    if (outcome === 'rejected') get().clear('Your session ended. Sign in again to continue.');
    else if (outcome === 'unreachable') schedule(RETRY_AFTER_NETWORK_ERROR_MS);
  };

  return {
    status: 'booting',
    ...NO_SESSION,
    setupRequired: false,
    notice: null,
    returnTo: null,

    boot: async () => {
      set({ status: 'booting' });
      let setupRequired: boolean;
      try {
        const status = await call('GET /setup/status', { auth: false });
        setupRequired = status.setupRequired;
      } catch (err) {
        if (err instanceof ApiError && err.isNetworkError) {
          set({ status: 'unreachable' });
          return;
        }
        // An older server without /setup/status: carry on and let the refresh decide.
        setupRequired = false;
      }
      set({ setupRequired });
      if (setupRequired) {
        set({ status: 'signedOut' });
        return;
      }
      const outcome = await refreshSession();
      if (outcome === 'unreachable') set({ status: 'unreachable' });
      else if (outcome === 'rejected') set({ status: 'signedOut' });
    },

    acceptTokens: (pair) => {
      const now = Date.now();
      const wasSignedIn = get().status === 'signedIn';
      set({
        status: 'signedIn',
        accessToken: pair.accessToken,
        user: pair.user,
        mfa: pair.mfa,
        expiresAt: now + pair.expiresInSeconds * 1000,
        signedInAt: wasSignedIn ? get().signedInAt : now,
        setupRequired: false,
        notice: null,
      });
      schedule(refreshDelaySeconds(pair.expiresInSeconds) * 1000);
      if (!wasSignedIn) channel?.postMessage({ type: 'signed-in' });
    },

    setIdentity: (user, mfa) => set(mfa === undefined ? { user } : { user, mfa }),

    refresh: async () => (await refreshSession()) === 'ok',

    signOut: async () => {
      const token = get().accessToken;
      if (token) {
        try {
          await call('POST /auth/logout', { token, retryOnUnauthorized: false });
        } catch {
          // The local session ends regardless; the server-side tokens expire on their own.
        }
      }
      get().clear(null);
      // A deliberate sign-out starts afresh: the next person to sign in lands on the overview, not on the page the
      // last one left (an expired session, by contrast, keeps its way back). Both updates land in one render.
      set({ returnTo: null });
      navigate('/login', { replace: true });
      channel?.postMessage({ type: 'signed-out' });
    },

    clear: (notice = null) => {
      epoch += 1;
      clearTimer();
      set({ status: 'signedOut', ...NO_SESSION, notice });
    },

    setReturnTo: (path) => set({ returnTo: path }),
    setSetupRequired: (value) => set({ setupRequired: value }),
  };
});

/** One refresh at a time (in this tab, and across tabs via the lock); concurrent callers share it. */
function refreshSession(): Promise<RefreshOutcome> {
  if (inFlight) return inFlight;
  const started = epoch;
  inFlight = withRefreshLock(async (): Promise<RefreshOutcome> => {
    try {
      const pair = await refreshWithCookie();
      // Signed out meanwhile: do not sign back in with a refresh that was already on its way.
      if (started !== epoch) return 'rejected';
      useSession.getState().acceptTokens(pair);
      useSession.setState({ lastRefreshAt: Date.now() });
      return 'ok';
    } catch (err) {
      if (err instanceof ApiError && err.isNetworkError) return 'unreachable';
      return 'rejected';
    }
  }).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

bindAuth({
  getAccessToken: () => useSession.getState().accessToken,
  refresh: () => refreshSession(),
  onUnauthorized: () => {
    if (useSession.getState().status === 'signedIn') {
      useSession.getState().clear('Your session ended. Sign in again to continue.');
    }
  },
});

channel?.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
  const state = useSession.getState();
  if (event.data.type === 'signed-out' && state.status === 'signedIn')
    state.clear('You signed out in another window.');
  if (event.data.type === 'signed-in' && state.status === 'signedOut' && !state.setupRequired)
    void state.refresh();
});

// Timers stall while a laptop sleeps: catch up as soon as the console is visible again.
document.addEventListener('visibilitychange', () => {
  const state = useSession.getState();
  if (document.visibilityState !== 'visible' || state.status !== 'signedIn') return;
  if (state.nextRefreshAt !== null && Date.now() >= state.nextRefreshAt) {
    void state.refresh().then((ok) => {
      if (
        !ok &&
        useSession.getState().status === 'signedIn' &&
        (useSession.getState().expiresAt ?? 0) < Date.now()
      ) {
        useSession.getState().clear('Your session ended. Sign in again to continue.');
      }
    });
  }
});

/** The signed-in user's scope (null before sign-in). */
export function useScope(): Scope | null {
  return useSession((s) => s.user?.scope ?? null);
}
