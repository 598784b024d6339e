import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function registrationRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
