import { defineRoute, type AnyRoute } from '../../http/route';
import { checkOrganization, discoverForEmail, partnerSignIn } from './discovery';
import { exchangeCode } from './exchange';
import { finishSignIn, startSignIn } from './login';
import type { SsoRuntime } from './runtime';
import {
  callbackQuery,
  discoveryBody,
  exchangeBody,
  loginQuery,
  orgIdParams,
  partnerIdParams,
  partnerSignInQuery,
} from './schemas';

// The public half of single sign-on (spec 1 rule 1: SSO login entry points need no token): starting and finishing
// the round trip, the exchange, and what the sign-in page may ask before anyone signs in.

const TAG = 'sso';
const REDIRECTS = { 302: 'Redirect to the IdP, or to /login?error=<code>' };

export function ssoLoginRoutes(rt: SsoRuntime): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/sso/login/partner/:partnerId',
      tag: TAG,
      summary: "Start signing in a partner's technician with the partner's oldest active provider",
      auth: 'public',
      params: partnerIdParams,
      query: loginQuery,
      responses: REDIRECTS,
      handler: ({ req, res, params, query }) =>
        startSignIn(rt, req, res, { partnerId: params.partnerId }, query.redirect ?? '/'),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/login/:orgId',
      tag: TAG,
      summary: "Start signing in with the organization's oldest active provider (OIDC, PKCE S256)",
      auth: 'public',
      params: orgIdParams,
      query: loginQuery,
      responses: REDIRECTS,
      handler: ({ req, res, params, query }) =>
        startSignIn(rt, req, res, { orgId: params.orgId }, query.redirect ?? '/'),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/callback',
      tag: TAG,
      summary:
        'The IdP redirects here with code and state; ends on /login#ssoCode=... or /login?error=<code>',
      auth: 'public',
      query: callbackQuery,
      responses: { 302: 'Redirect to /login#ssoCode=... or /login?error=<code>' },
      handler: ({ req, res }) => finishSignIn(rt, req, res),
    }),
    defineRoute({
      method: 'post',
      path: '/sso/exchange',
      tag: TAG,
      summary: 'Exchange the one-minute, single-use code from the URL fragment for the session',
      auth: 'public',
      body: exchangeBody,
      responses: { 401: 'Invalid or expired SSO code', 429: 'Too many invalid SSO codes' },
      handler: ({ req, res, body }) => exchangeCode(rt, req, res, body.code),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/check/:orgId',
      tag: TAG,
      summary: "The organization's active provider: name, type, whether SSO is enforced",
      auth: 'public',
      params: orgIdParams,
      handler: ({ params }) => checkOrganization(rt.ctx.db, params.orgId),
    }),
    defineRoute({
      method: 'get',
      path: '/sso/partner-sign-in',
      tag: TAG,
      summary:
        "The partner button of a sign-in page: by partner slug, or without one the single partner's; else {sso: null}",
      auth: 'public',
      query: partnerSignInQuery,
      handler: ({ query }) => partnerSignIn(rt.ctx.db, query.slug ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/sso-discovery',
      tag: TAG,
      summary:
        'Sign-in page: the provider for an email domain DNS-verified by exactly one organization, or null',
      auth: 'public',
      body: discoveryBody,
      handler: ({ body }) => discoverForEmail(rt.ctx.db, body.email),
    }),
  ];
}
