import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function tenancyRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
