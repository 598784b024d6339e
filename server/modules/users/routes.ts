import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function userRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
