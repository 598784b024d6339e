import type { AppContext } from '../context';

export function startOffboardingReaper(_ctx: AppContext): () => void {
  return () => {};
}
