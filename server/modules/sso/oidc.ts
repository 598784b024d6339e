import * as client from 'openid-client';
import { assertSafeEndpoint, insecureAllowed, safeFetch, UnsafeEndpointError } from './endpoints';
import type { SsoRuntime } from './runtime';

// The one wrapper over openid-client (v6): discovery with every request judged by endpoints.ts, and the client
// configuration a sign-in uses. Nothing else in Gatehouse speaks OAuth.

const DISCOVERY_TIMEOUT_SECONDS = 10;

export interface DiscoveredEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string | null;
  jwksUrl: string | null;
}

/** What a sign-in needs of a provider: its issuer and client, and any endpoint the administrator set by hand. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  endpoints?: Partial<Record<keyof DiscoveredEndpoints, string | null>>;
}

export class DiscoveryError extends Error {}

/**
 * The rebuilt configuration gets what discovery's had: every request through safeFetch, a timeout, and plain http
 * only for a loopback IdP under SSO_ALLOW_INSECURE_ISSUER.
 */
function hardened(rt: SsoRuntime, config: client.Configuration, issuer: string): client.Configuration {
  config[client.customFetch] = safeFetch(rt);
  config.timeout = DISCOVERY_TIMEOUT_SECONDS;
  if (insecureAllowed(rt, issuer)) client.allowInsecureRequests(config);
  return config;
}

const endpointsOf = (metadata: client.ServerMetadata): DiscoveredEndpoints => ({
  authorizationUrl: metadata.authorization_endpoint ?? '',
  tokenUrl: metadata.token_endpoint ?? '',
  userInfoUrl: metadata.userinfo_endpoint ?? null,
  jwksUrl: metadata.jwks_uri ?? null,
});

/**
 * Fetches the issuer's discovery document now (rule 12: at create, at an issuer change and at every sign-in) and
 * builds the client configuration. Every endpoint it names must be safe, the authorization endpoint included
 * (the browser goes there, and a private address there would be a phishing aid), or DiscoveryError says which.
 */
export async function discoverClient(
  rt: SsoRuntime,
  settings: OidcClientSettings,
): Promise<{ config: client.Configuration; endpoints: DiscoveredEndpoints }> {
  let discovered: client.Configuration;
  try {
    await assertSafeEndpoint(rt, settings.issuer);
    const auth = settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None();
    discovered = await client.discovery(new URL(settings.issuer), settings.clientId, undefined, auth, {
      [client.customFetch]: safeFetch(rt),
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      execute: insecureAllowed(rt, settings.issuer) ? [client.allowInsecureRequests] : [],
    });
  } catch (err) {
    throw new DiscoveryError(discoveryProblem(err));
  }
  const found = endpointsOf(discovered.serverMetadata());
  const overrides = settings.endpoints ?? {};
  const endpoints: DiscoveredEndpoints = {
    authorizationUrl: overrides.authorizationUrl ?? found.authorizationUrl,
    tokenUrl: overrides.tokenUrl ?? found.tokenUrl,
    userInfoUrl: overrides.userInfoUrl ?? found.userInfoUrl,
    jwksUrl: overrides.jwksUrl ?? found.jwksUrl,
  };
  if (!endpoints.authorizationUrl || !endpoints.tokenUrl)
    throw new DiscoveryError('The discovery document names no authorization or token endpoint');
  for (const url of Object.values(endpoints))
    if (url)
      await assertSafeEndpoint(rt, url).catch((err: unknown) => {
        throw new DiscoveryError(discoveryProblem(err));
      });
  // A plain copy of the discovered document (without openid-client's helper methods) with the endpoints in force.
  const metadata = JSON.parse(JSON.stringify(discovered.serverMetadata())) as Record<string, unknown>;
  Object.assign(metadata, {
    authorization_endpoint: endpoints.authorizationUrl,
    token_endpoint: endpoints.tokenUrl,
    userinfo_endpoint: endpoints.userInfoUrl ?? undefined,
    jwks_uri: endpoints.jwksUrl ?? undefined,
  });
  const config = new client.Configuration(
    metadata as unknown as client.ServerMetadata,
    settings.clientId,
    undefined,
    settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
  );
  return { config: hardened(rt, config, settings.issuer), endpoints };
}

/** A discovery failure in words an administrator can act on, never with the client secret. */
function discoveryProblem(err: unknown): string {
  if (err instanceof UnsafeEndpointError) return `Endpoint refused: ${err.message}`;
  if (err instanceof client.ClientError) return `Discovery failed: ${err.message}`;
  if (err instanceof Error) return `Discovery failed: ${err.message}`;
  return 'Discovery failed';
}

export { client };
