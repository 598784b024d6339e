import { describe, expect, it } from 'vitest';
import { SignInTrip } from '../../main/sign-in-trip';

// The desktop window may leave the console origin only for a single sign-on round trip it started itself.
describe('desktop single sign-on trip', () => {
  const consoleOrigin = 'http://localhost:4310';
  const idp = 'https://login.microsoftonline.com/tenant/oauth2/v2.0/authorize?client_id=x';

  it('opens at the login entry point, lets the provider in, and closes back on the console', () => {
    let now = 1_000;
    const trip = new SignInTrip(false, () => now);
    expect(trip.allowsForeign(idp)).toBe(false);
    trip.onConsole(`${consoleOrigin}/api/v1/sso/login/org-1?redirect=%2F`);
    expect(trip.allowsForeign(idp)).toBe(true);
    expect(trip.allowsForeign('https://adfs.example.com/federated')).toBe(true);
    now += 60_000;
    trip.onConsole(`${consoleOrigin}/api/v1/sso/callback?code=abc&state=xyz`);
    expect(trip.allowsForeign(idp)).toBe(false);
  });

  it('never opens from another console page, and expires with the server-side login state', () => {
    let now = 0;
    const trip = new SignInTrip(false, () => now);
    trip.onConsole(`${consoleOrigin}/devices`);
    expect(trip.allowsForeign(idp)).toBe(false);
    trip.onConsole(`${consoleOrigin}/api/v1/sso/login/partner/p-1`);
    now += 10 * 60_000;
    expect(trip.allowsForeign(idp)).toBe(false);
  });

  it('refuses plain http, credentials in the URL and other schemes even during a trip', () => {
    const trip = new SignInTrip(false, () => 0);
    trip.onConsole(`${consoleOrigin}/api/v1/sso/login/org-1`);
    expect(trip.allowsForeign('http://idp.example.com/authorize')).toBe(false);
    expect(trip.allowsForeign('http://127.0.0.1:9000/authorize')).toBe(false);
    expect(trip.allowsForeign('https://user:pw@idp.example.com/authorize')).toBe(false);
    expect(trip.allowsForeign('file:///etc/passwd')).toBe(false);
    expect(trip.allowsForeign('javascript:alert(1)')).toBe(false);
  });

  it('lets a loopback http provider in only where SSO_ALLOW_INSECURE_ISSUER allows one', () => {
    const trip = new SignInTrip(true, () => 0);
    trip.onConsole(`${consoleOrigin}/api/v1/sso/login/org-1`);
    expect(trip.allowsForeign('http://127.0.0.1:9000/authorize')).toBe(true);
    expect(trip.allowsForeign('http://localhost:9000/authorize')).toBe(true);
    expect(trip.allowsForeign('http://idp.example.com/authorize')).toBe(false);
  });
});
