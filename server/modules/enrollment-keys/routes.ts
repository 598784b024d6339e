import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function enrollmentKeyRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
