// The api-keys module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export { API_KEY_HEADER, ApiKeyAuthenticator } from './authenticate';
// Shared request-shape pieces (ids and future timestamps) that other modules' schemas reuse.
export { futureDateTime, idParams, uuidField } from './schemas';
export { generatePrefixedKey } from './service';
