import type { Request, Response } from 'express';
import { randomToken, sha256Hex } from '../../crypto';
import type { SsoLoginError } from '../../contract';
import { client, discoverClient, DiscoveryError, type OidcClientSettings } from './oidc';
import { loginErrorPath, redirectUriOf } from './paths';
import { activeProviderOf, providerById, type ProviderRow } from './provider-store';
import { mapAccount, SignInRefused, type IdpProfile } from './provisioning';
import type { SsoRuntime } from './runtime';
import {
  consumeLoginSession,
  deleteExpiredSignIns,
  insertExchangeCode,
  insertLoginSession,
} from './session-store';
import { clearStateCookie, LOGIN_TTL_MS, setStateCookie, stateMatchesCookie } from './state-cookie';
import { auditSignInRefused } from './sign-in-audit';

// The sign-in round trip of rule 10 (OIDC authorization code with PKCE S256). Every failure ends on the console's
// sign-in page with one of the codes in SSO_LOGIN_ERRORS; nothing about the failure beyond the code reaches the
// browser, and the details go to the log and the audit trail.

/** The code in the URL fragment is good for one exchange within a minute. */
const EXCHANGE_TTL_MS = 60 * 1000;

function settingsOf(rt: SsoRuntime, row: ProviderRow): OidcClientSettings | null {
  if (row.type !== 'oidc' || !row.issuer || !row.client_id) return null;
  return {
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecret: row.client_secret_sealed ? rt.ctx.secretBox.open(row.client_secret_sealed) : null,
    endpoints: {
      authorizationUrl: row.authorization_url,
      tokenUrl: row.token_url,
      userInfoUrl: row.userinfo_url,
      jwksUrl: row.jwks_url,
    },
  };
}

const fail = (res: Response, code: SsoLoginError): void => res.redirect(302, loginErrorPath(code));

/** `GET /sso/login/:orgId` and `/sso/login/partner/:partnerId`: steps a-c. */
export async function startSignIn(
  rt: SsoRuntime,
  req: Request,
  res: Response,
  owner: { orgId: string } | { partnerId: string },
  redirectPath: string,
): Promise<void> {
  deleteExpiredSignIns(rt.ctx.db, new Date().toISOString());
  const provider = activeProviderOf(rt.ctx.db, owner);
  const settings = provider && settingsOf(rt, provider);
  if (!provider || !settings) return fail(res, 'provider_not_found');
  let config: client.Configuration;
  try {
    ({ config } = await discoverClient(rt, settings));
  } catch (err) {
    if (!(err instanceof DiscoveryError)) throw err;
    rt.ctx.log.warn({ providerId: provider.id, problem: err.message }, 'SSO sign-in could not start');
    return fail(res, 'sso_failed');
  }
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const now = Date.now();
  insertLoginSession(rt.ctx.db, {
    state_hash: sha256Hex(state),
    provider_id: provider.id,
    generation: provider.generation,
    nonce,
    code_verifier_sealed: rt.ctx.secretBox.seal(verifier),
    redirect_path: redirectPath,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + LOGIN_TTL_MS).toISOString(),
  });
  setStateCookie(req, res, rt.ctx.config.production, rt.signer.sign(state));
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(rt.ctx),
    scope: provider.scopes,
    response_type: 'code',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  res.redirect(302, url.href);
}

/** `GET /sso/callback`: steps d-l. */
export async function finishSignIn(rt: SsoRuntime, req: Request, res: Response): Promise<void> {
  const { ctx } = rt;
  const state = typeof req.query.state === 'string' ? req.query.state : undefined;
  // d: the browser's cookie first, in constant time; then the server-side round trip, consumed once.
  const sameBrowser = stateMatchesCookie(req, rt.signer, state);
  clearStateCookie(req, res, ctx.config.production);
  const at = new Date().toISOString();
  const session = sameBrowser && state ? consumeLoginSession(ctx.db, sha256Hex(state), at) : undefined;
  if (!session)
    return refuse(
      rt,
      req,
      res,
      null,
      'session_expired',
      'state cookie missing or wrong, or round trip used or expired',
    );
  const provider = providerById(ctx.db, session.provider_id);
  const settings = provider && provider.status === 'active' ? settingsOf(rt, provider) : null;
  if (!provider || !settings)
    return refuse(rt, req, res, provider ?? null, 'provider_not_found', 'provider gone or not active');
  // Rule 12: a provider reconfigured since the round trip began does not finish it.
  if (provider.generation !== session.generation)
    return refuse(rt, req, res, provider, 'session_expired', 'provider reconfigured during sign-in');

  let profile: IdpProfile;
  try {
    const { config } = await discoverClient(rt, settings);
    // The IdP's answer exactly as it arrived (openid-client reads state, code, iss and error from it).
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?') + 1);
    const currentUrl = new URL(`${redirectUriOf(ctx)}?${query}`);
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: ctx.secretBox.open(session.code_verifier_sealed),
      expectedState: state,
      expectedNonce: session.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    const userInfo = config.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      : {};
    profile = {
      claims: { ...claims, ...userInfo } as Record<string, unknown>,
      subject: claims.sub,
      amr: Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [],
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? null,
      expiresAt: tokens.expires_in ? new Date(Date.now() + tokens.expires_in * 1000).toISOString() : null,
    };
  } catch (err) {
    const problem = err instanceof Error ? err.message : 'IdP answer refused';
    return refuse(rt, req, res, provider, 'sso_failed', problem);
  }

  let signedIn: { userId: string; idpMfa: boolean };
  try {
    signedIn = mapAccount(rt, req, provider, profile);
  } catch (err) {
    if (err instanceof SignInRefused) return refuse(rt, req, res, provider, err.code, err.message);
    throw err;
  }
  // l: the console collects the session with this code (POST /sso/exchange); the fragment never reaches a server log.
  const code = randomToken(32);
  const now = Date.now();
  insertExchangeCode(ctx.db, {
    code_hash: sha256Hex(code),
    user_id: signedIn.userId,
    provider_id: provider.id,
    idp_mfa: signedIn.idpMfa ? 1 : 0,
    redirect_path: session.redirect_path,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + EXCHANGE_TTL_MS).toISOString(),
  });
  res.redirect(302, `/login#ssoCode=${code}`);
}

function refuse(
  rt: SsoRuntime,
  req: Request,
  res: Response,
  provider: ProviderRow | null,
  code: SsoLoginError,
  reason: string,
): void {
  auditSignInRefused(rt, req, provider, code, reason);
  fail(res, code);
}
