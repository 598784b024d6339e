// The console's Content-Security-Policy, the one source for both places that send it: the server on every
// console page (app.ts) and the desktop shell on every response of its window (main/security.ts), so the two can
// never drift apart. Everything is same origin: API, assets and the live WebSocket. CSP3 lets 'self' match ws:
// and wss: URLs of the page's own host and port, so no scheme-wide ws:/wss: source is needed (that would let an
// injected script open a socket to any host). Inline styles are allowed because React sets style attributes;
// everything a console never needs (plugins, <base>, being framed, posting forms elsewhere) is off.
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');
