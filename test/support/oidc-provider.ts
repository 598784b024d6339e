import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

// A real OpenID provider for the SSO tests: the `oidc-provider` package (a certified OP) on a loopback port inside
// the test process, with one confidential client for Gatehouse. Sign-in at the IdP needs no form by default: the
// interaction endpoint signs in whichever account the test chose (`signInAs`), with the amr it chose, and grants the
// scopes. With `loginForm` (the browser tests), the IdP shows its own sign-in page instead, and signs in the account
// `addAccount` registered whose email and password were typed there.
//
// Misbehaving IdPs are the same provider with a tamper hook on its token endpoint: the ID token it issued is
// decoded, the test changes its claims (nonce, aud, iss, exp) and it is signed again with the provider's own key,
// so only the claim under test is wrong and everything else (signature, JWKS, PKCE, code) is genuine.

export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account (and amr) the next interaction signs in. */
  signInAs(account: IdpAccount, amr?: string[]): void;
  /** loginForm only: an account that can sign in on the IdP's page with this password. */
  addAccount(account: IdpAccount, password: string): void;
  /** Rewrites the claims of ID tokens the token endpoint issues until cleared with null. */
  tamperIdToken(change: ((claims: JWTPayload) => JWTPayload) | null): void;
  close(): Promise<void>;
}

export interface TestIdpOptions {
  /** Show a sign-in form at the IdP (email and password) instead of signing in `signInAs` silently. */
  loginForm?: boolean;
}

/** The IdP's own sign-in page: a plain form, so a browser test types into it like a person would. */
function loginPage(uid: string, problem: string | null): string {
  const error = problem ? `<p id="idp-error" style="color:#b42318">${problem}</p>` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test IdP sign-in</title></head>
<body style="font-family:sans-serif;max-width:360px;margin:80px auto">
<h1>Test IdP</h1><p>Sign in to continue to Gatehouse.</p>${error}
<form method="post" action="/interaction/${uid}">
<label>Email <input id="idp-email" name="email" type="email" autocomplete="username"></label><br><br>
<label>Password <input id="idp-password" name="password" type="password"></label><br><br>
<button id="idp-submit" type="submit">Sign in</button>
</form></body></html>`;
}

async function formFields(ctx: KoaContextLike): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

type KoaContextLike = Parameters<Parameters<Provider['use']>[0]>[0];

export async function startTestIdp(redirectUri: string, options: TestIdpOptions = {}): Promise<TestIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-idp-key', alg: 'RS256', use: 'sig' };
  const clientId = 'gatehouse';
  const clientSecret = 'idp-client-secret-4a1c9e77b2d54f0e';

  const accounts = new Map<string, IdpAccount>();
  let current: { account: IdpAccount; amr: string[] } = {
    account: { sub: 'nobody', email: 'nobody@example.test', email_verified: true, name: 'Nobody' },
    amr: ['pwd'],
  };
  let tamper: ((claims: JWTPayload) => JWTPayload) | null = null;
  const passwords = new Map<string, { account: IdpAccount; password: string }>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    // Explicit lifetimes keep the provider from printing a notice for each default it falls back to.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    cookies: { keys: ['test-idp-cookie-key'] },
    claims: {
      // amr and auth_time with the openid scope: every ID token says how the user signed in (RFC 8176).
      openid: ['sub', 'amr', 'auth_time'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Like Entra and Okta, put the claims (amr included) in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
  });

  provider.use(async (ctx, next) => {
    if (ctx.path.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      let { account, amr } = current;
      if (options.loginForm) {
        const typed = ctx.method === 'POST' ? await formFields(ctx) : null;
        const known = typed ? passwords.get((typed.get('email') ?? '').toLowerCase()) : undefined;
        if (!typed || !known || known.password !== typed.get('password')) {
          ctx.type = 'html';
          ctx.body = loginPage(details.uid, typed ? 'Wrong email or password.' : null);
          return;
        }
        account = known.account;
        amr = ['pwd'];
      }
      accounts.set(account.sub, account);
      const grant = new provider.Grant({
        accountId: account.sub,
        clientId: details.params.client_id ?? clientId,
      });
      grant.addOIDCScope(details.params.scope ?? 'openid');
      const grantId = await grant.save();
      await provider.interactionFinished(
        ctx.req,
        ctx.res,
        { login: { accountId: account.sub, amr }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (tamper && ctx.path === '/token' && body?.id_token) {
      const claims = tamper(decodeJwt(body.id_token));
      body.id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
        .sign(privateKey);
    }
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(account, amr = ['pwd']) {
      current = { account, amr };
    },
    addAccount(account, password) {
      passwords.set((account.email ?? account.sub).toLowerCase(), { account, password });
    },
    tamperIdToken(change) {
      tamper = change;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
