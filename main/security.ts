// Electron hardening (DESIGN §6). The console is an ordinary web app served by the embedded server, so the
// window is treated like a browser tab that must never gain Node access, never leave its origin, and never get a
// device permission it did not ask the operator for. Each guard is a small exported function so it can be
// reasoned about (and reused for every WebContents) on its own.
import { app, shell, type Session, type WebContents, type WebPreferences } from 'electron';
import { CONSOLE_CSP } from '../server/http/csp';
import { SignInTrip } from './sign-in-trip';

/**
 * The console origin (`http://localhost:<port>`) is only known once the server is listening; until then every
 * origin check fails closed. Guards read it through this getter rather than capturing a value.
 */
export type OriginSource = () => string | null;

/** Permissions the console may use: desktop notifications for PAM requests, and copying (e.g. a setup key). */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications', 'clipboard-sanitized-write']);

/** Parses a URL without throwing; malformed URLs are treated as foreign. */
function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when `url` belongs to the console origin. Compares origins, never string prefixes. */
export function isConsoleUrl(url: string, origin: string | null): boolean {
  if (!origin) return false;
  return parse(url)?.origin === origin;
}

/**
 * Hands a foreign link to the operator's browser, but only https: file:, javascript:, custom schemes or plain
 * http could launch local handlers or leak over the network, so they are dropped.
 */
export function openExternalIfSafe(url: string): void {
  if (parse(url)?.protocol === 'https:') {
    void shell.openExternal(url).catch((error: unknown) => {
      console.warn('gatehouse: could not open external link:', error);
    });
  }
}

/**
 * webPreferences for every console window: the page runs like a browser tab (isolated world, OS sandbox, no
 * Node), and the only bridge is the preload's read-only `gatehouse` namespace, fed through process.argv.
 */
export function secureWebPreferences(preload: string, bridgeArgs: string[]): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    // DevTools are a development aid; a packaged build does not offer them.
    devTools: !app.isPackaged,
    additionalArguments: bridgeArgs,
  };
}

/**
 * Adds the console CSP (the server's own, from server/http/csp.ts) to every response from the console origin, so
 * a response the server sends without one (an asset, an error page) is covered too. It is appended next to any
 * policy the server sends, and browsers enforce all policies at once, so this can never loosen what the server
 * chose. One listener per session (webRequest keeps only the last), so this is installed once on the default
 * session.
 */
export function applyContentSecurityPolicy(session: Session, origin: OriginSource): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isConsoleUrl(details.url, origin())) {
      callback({});
      return;
    }
    const headers = { ...(details.responseHeaders ?? {}) };
    const key = Object.keys(headers).find((name) => name.toLowerCase() === 'content-security-policy');
    if (key) headers[key] = [...(headers[key] ?? []), CONSOLE_CSP];
    else headers['Content-Security-Policy'] = [CONSOLE_CSP];
    callback({ responseHeaders: headers });
  });
}

/**
 * Deny-by-default permissions. Chromium asks the request handler before prompting and the check handler for
 * synchronous queries (navigator.permissions, Notification.permission); both must agree, or a page could see
 * "granted" for something it can never use, or the reverse.
 */
export function applyPermissionPolicy(session: Session, origin: OriginSource): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isConsoleUrl(details.requestingUrl, origin()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return ALLOWED_PERMISSIONS.has(permission) && isConsoleUrl(requestingOrigin, origin());
  });
  // Device pickers (USB/HID/serial/Bluetooth) are off entirely: a console never talks to local hardware.
  session.setDevicePermissionHandler(() => false);
}

/**
 * Keeps a WebContents on the console origin. A link or redirect elsewhere (an XSS payload, a compromised
 * dependency, a phishing link in a device name) must not turn the privileged window into an arbitrary site;
 * https links go to the operator's browser instead. Sub-frames get the same rule. The one exception is a single
 * sign-on round trip the window started at the server's login entry point (sign-in-trip.ts).
 */
export function guardNavigation(contents: WebContents, origin: OriginSource): void {
  const trip = new SignInTrip(process.env.SSO_ALLOW_INSECURE_ISSUER === 'true');
  const deny = (event: { preventDefault(): void }, url: string): void => {
    if (isConsoleUrl(url, origin())) {
      trip.onConsole(url);
      return;
    }
    if (trip.allowsForeign(url)) return;
    event.preventDefault();
    openExternalIfSafe(url);
  };
  contents.on('will-navigate', (event, url) => deny(event, url));
  contents.on('will-redirect', (event, url) => deny(event, url));
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return; // handled by will-navigate above
    if (!isConsoleUrl(event.url, origin())) event.preventDefault();
  });
}

/**
 * No new windows: a second window would escape the navigation guard and the single-window lifecycle. Links with
 * target=_blank to https sites open in the operator's browser.
 */
export function guardWindowOpen(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url);
    return { action: 'deny' };
  });
}

/** <webview> would embed a guest with its own preferences; the console has no use for one, so none attach. */
export function blockWebviews(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Applies every per-WebContents guard. */
export function guardWebContents(contents: WebContents, origin: OriginSource): void {
  guardNavigation(contents, origin);
  guardWindowOpen(contents);
  blockWebviews(contents);
}

/**
 * Installs the app-wide hardening. Call before `app.whenReady()`: `enableSandbox` only works before ready, and
 * `web-contents-created` must be registered before the first window so no WebContents (including DevTools or a
 * future helper window) escapes the guards.
 */
export function installAppGuards(origin: OriginSource): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origin));
}

/** Installs the session-level policies; call once the app is ready (sessions do not exist before). */
export function installSessionPolicies(session: Session, origin: OriginSource): void {
  applyContentSecurityPolicy(session, origin);
  applyPermissionPolicy(session, origin);
}
