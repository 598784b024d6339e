import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function roleRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
