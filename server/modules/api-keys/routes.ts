import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function apiKeyRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
