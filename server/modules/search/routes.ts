import { z } from 'zod';
import { SEARCH_QUERY_MAX } from '../../contract/filters';
import type { AppContext } from '../../context';
import { defineRoute, type AnyRoute } from '../../http/route';
import { search } from './service';

// GET /search (spec 2): JWT or API key. No route permission: each kind needs the permission of the list it comes
// from (service.ts), checked per kind, so a caller without devices:read still finds pages and people.

const LIMIT_MESSAGE = 'limit must be an integer between 1 and 50';

export const searchQuery = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, `q must be 1-${SEARCH_QUERY_MAX} characters`)
    .max(SEARCH_QUERY_MAX, `q must be 1-${SEARCH_QUERY_MAX} characters`),
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^\d{1,2}$/, LIMIT_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(1, LIMIT_MESSAGE).max(50, LIMIT_MESSAGE))
    .default(20),
});

export function searchRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/search',
      tag: 'search',
      summary:
        "Global search within the caller's scope: console pages by title and synonyms, devices by hostname, display name or last user, elevation requests, elevation rules, organizations and users, each kind with the permission of its list",
      auth: 'user_or_key',
      query: searchQuery,
      handler: ({ auth, query }) => search(ctx, auth, query.q, query.limit),
    }),
  ];
}
