import type { AppContext } from '../../context';
import type { AnyRoute } from '../../http/route';

export function smsRoutes(_ctx: AppContext): AnyRoute[] {
  return [];
}
