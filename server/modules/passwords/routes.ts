import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function passwordRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
