import { resolveTxt } from 'node:dns/promises';
import type { AppContext } from '../../context';
import { systemResolver, type Resolver } from '../webhooks';
import { stateSigner, type StateSigner } from './state-cookie';

// What the SSO routes share for one server: the context and the two DNS seams tests answer themselves (the
// address lookup that judges IdP endpoints, the TXT lookup that proves domain ownership).

/** TXT records of a name, each record's strings as returned by dns.resolveTxt. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** ServerOptions.sso: production uses the system resolver for both. */
export interface SsoOptions {
  /** Address resolution of IdP hosts (default: dns.lookup with all addresses). */
  resolver?: Resolver;
  /** TXT lookups for domain verification (default: dns.resolveTxt). */
  txtResolver?: TxtResolver;
}

export interface SsoRuntime {
  ctx: AppContext;
  resolver: Resolver;
  txtResolver: TxtResolver;
  /** SSO_ALLOW_INSECURE_ISSUER: an http IdP on loopback is allowed (test rooms only). */
  allowInsecureLoopback: boolean;
  /** Signs the state into the browser's `service_sso_state` cookie. */
  signer: StateSigner;
}

export function ssoRuntime(ctx: AppContext, options: SsoOptions = {}): SsoRuntime {
  return {
    ctx,
    resolver: options.resolver ?? systemResolver,
    txtResolver: options.txtResolver ?? resolveTxt,
    allowInsecureLoopback: ctx.config.ssoAllowInsecureIssuer,
    signer: stateSigner(),
  };
}
