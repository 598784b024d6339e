// The partner-api module's public surface. Its routes (/partner-keys, /partner-api) are mounted by
// server/index.ts from routes.ts; no other module needs it.
export { PARTNER_KEY_PREFIX, partnerKeyAuthenticator, type PartnerCaller } from './authenticate';
