// A browser as far as single sign-on needs one: it follows redirects by hand across Gatehouse and the IdP and keeps
// each origin's cookies (with their paths), so the state cookie goes only where the browser would send it.

interface StoredCookie {
  value: string;
  path: string;
}

/** Where a sign-in ended on the console: `/login#ssoCode=...` or `/login?error=...`. */
export interface SignInLanding {
  location: string;
  code: string | null;
  error: string | null;
}

export class SsoBrowser {
  private readonly jar = new Map<string, Map<string, StoredCookie>>();

  constructor(private readonly consoleOrigin: string) {}

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name)?.value;
  }

  setCookie(origin: string, name: string, value: string, path: string): void {
    let cookies = this.jar.get(origin);
    if (!cookies) this.jar.set(origin, (cookies = new Map()));
    cookies.set(name, { value, path });
  }

  dropCookie(origin: string, name: string): void {
    this.jar.get(origin)?.delete(name);
  }

  private cookieHeader(url: URL): string {
    const cookies = this.jar.get(url.origin) ?? new Map<string, StoredCookie>();
    return [...cookies]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const expires = attr('expires');
      const gone = attr('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (gone || value === '') this.dropCookie(url.origin, name);
      else this.setCookie(url.origin, name, value, attr('path') ?? '/');
    }
  }

  /** One request with this browser's cookies; redirects are not followed. */
  async get(url: URL): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.cookieHeader(url) } });
    this.store(url, res);
    return res;
  }

  /** Follows redirects from `url` until they stop or land on the console's sign-in page. */
  async follow(start: string | URL, stopAtCallback = false): Promise<{ url: URL; res: Response }> {
    let url = new URL(start, this.consoleOrigin);
    for (let hop = 0; hop < 20; hop++) {
      if (stopAtCallback && url.pathname === '/api/v1/sso/callback') return { url, res: new Response(null) };
      const res = await this.get(url);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url, res };
      await res.arrayBuffer();
      url = new URL(location, url);
      if (url.origin === this.consoleOrigin && url.pathname === '/login') return { url, res };
    }
    throw new Error('too many redirects');
  }

  /** A whole sign-in from Gatehouse's entry point to where it lands on the console. */
  async signIn(path: string): Promise<SignInLanding> {
    const { url } = await this.follow(path);
    return landing(url);
  }
}

export function landing(url: URL): SignInLanding {
  const fragment = new URLSearchParams(url.hash.slice(1));
  return {
    location: `${url.pathname}${url.search}${url.hash}`,
    code: fragment.get('ssoCode'),
    error: url.searchParams.get('error'),
  };
}
