import type { AppContext } from '../../context';

/** `<console origin>/api/v1/sso/callback` (DESIGN §7): what administrators paste into their IdP. */
export const CALLBACK_PATH = '/api/v1/sso/callback';
export const redirectUriOf = (ctx: AppContext): string => `${ctx.publicOrigin}${CALLBACK_PATH}`;

/** Where the console's sign-in page shows why single sign-on failed (spec 1 Errors). */
export const loginErrorPath = (code: string): string => `/login?error=${encodeURIComponent(code)}`;
