import type { SearchResponse } from '../filters';
import type { HealthResponse, MeResponse, SetupStatusResponse, WsTicketResponse } from '../session';
import type { Endpoint } from './endpoint';

// What the console asks before and around every screen: whether the server is up or still to be set up, who is
// signed in, the live channel's ticket, and the global search.

export interface SearchQuery {
  q: string;
  limit: number;
}

export interface SessionEndpoints {
  'GET /health': Endpoint<HealthResponse>;
  'GET /setup/status': Endpoint<SetupStatusResponse>;
  'GET /auth/me': Endpoint<MeResponse>;
  'POST /auth/logout': Endpoint<{ success: true }>;
  'POST /ws/ticket': Endpoint<WsTicketResponse>;
  'GET /search': Endpoint<SearchResponse, undefined, SearchQuery>;
}
