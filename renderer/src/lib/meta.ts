// Server facts the console shows (version), fetched once and on demand.

import { create } from 'zustand';
import type { HealthResponse } from '../../../server/contract';
import { api, errorMessage } from './api/client';

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
      const health = await api<HealthResponse>('/health', { auth: false });
      set({ health, healthError: null, checkedAt: Date.now() });
    } catch (err) {
      set({ healthError: errorMessage(err), checkedAt: Date.now() });
    }
  },
}));
