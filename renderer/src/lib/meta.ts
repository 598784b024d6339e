// Server facts the console shows (version), fetched once and on demand.

import { useEffect } from 'react';
import { create } from 'zustand';
import type { HealthResponse } from '../../../server/contract';
import { errorMessage } from './api/client';
import { call } from './api/endpoints';

interface MetaState {
  health: HealthResponse | null;
  healthError: string | null;
  checkedAt: number | null;
  loadHealth: () => Promise<void>;
}

export const useMeta = create<MetaState>((set) => ({
  health: null,
  healthError: null,
  checkedAt: null,
  loadHealth: async () => {
    try {
      const health = await call('GET /health', { auth: false });
      set({ health, healthError: null, checkedAt: Date.now() });
    } catch (err) {
      set({ healthError: errorMessage(err), checkedAt: Date.now() });
    }
  },
}));

/** The server's health, asked for afresh whenever a frame that shows it (the shell, the sign-in pages) mounts. */
export function useFreshHealth(): HealthResponse | null {
  const health = useMeta((s) => s.health);
  const loadHealth = useMeta((s) => s.loadHealth);
  useEffect(() => {
    void loadHealth();
  }, [loadHealth]);
  return health;
}
