// Single sign-on is the one time the console window leaves its origin on purpose: the sign-in page goes to
// /api/v1/sso/login/..., the server redirects the window to the identity provider, and the provider sends it back
// to /api/v1/sso/callback. The login is bound to a state cookie of this window's session (rule 10), so the trip
// cannot be handed to the operator's browser as other foreign links are. A trip opens only when the window itself
// goes to the server's login entry point, allows main-frame navigations to the provider (https; http on loopback
// only where the server allows such a test IdP), and closes when the window is back on the console or after as
// long as the server keeps the login state.

/** The server's single sign-on entry points (server/modules/sso/login-routes.ts, under /api/v1). */
const LOGIN_ENTRY = '/api/v1/sso/login/';
/** The server keeps a login's state 10 minutes; a trip never outlives it. */
const TRIP_MS = 10 * 60_000;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function loopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export class SignInTrip {
  private until = 0;

  constructor(
    /** SSO_ALLOW_INSECURE_ISSUER, as the server reads it: an http IdP on loopback (test rooms). */
    private readonly allowInsecureLoopback: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** A navigation of the window on the console origin: the login entry opens a trip, any other page ends it. */
  onConsole(url: string): void {
    const path = parse(url)?.pathname ?? '';
    this.until = path.startsWith(LOGIN_ENTRY) ? this.now() + TRIP_MS : 0;
  }

  /** Whether the window's main frame may go to this foreign URL now. */
  allowsForeign(url: string): boolean {
    if (this.now() >= this.until) return false;
    const target = parse(url);
    if (!target || target.username || target.password) return false;
    if (target.protocol === 'https:') return true;
    return this.allowInsecureLoopback && target.protocol === 'http:' && loopback(target);
  }
}
