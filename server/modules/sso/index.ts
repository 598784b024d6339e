// The SSO module's public surface. server/index.ts composes it: a runtime per server and the routes (routes.ts,
// login-routes.ts, domain-routes.ts, mounted from the composition root). Only what does not import the auth module
// is exported here, so auth can ask whether single sign-on governs an account without an import cycle.
export { ssoRuntime, type SsoOptions, type SsoRuntime } from './runtime';
export { ssoGoverns } from './governance';
// The provider a sign-in went through, named in the session's sign-in record (auth/sign-in.ts).
export { providerById } from './provider-store';
