// Single sign-on in the console (issue 14): a partner administrator sets up an OIDC provider for one organization
// against a real identity provider (oidc-provider on loopback, its own sign-in form), tests the connection,
// switches it on, proves the organization's email domain with the TXT record the console shows, looks at the
// enforcement warning, and signs out. A new technician of that organization types their email on the sign-in page,
// is offered "Continue with ...", signs in on the IdP's page and lands on the overview with a fresh account.
import { expect, test } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../support/oidc-provider';
import {
  apiJson,
  freshTotp,
  MfaTechnician,
  screen,
  startServer,
  watchErrors,
  type TestServer,
} from './fixtures';

const ADMIN = 'riley.chen@northwind.demo';
const ORG = 'Contoso Dental';
const DOMAIN = 'contoso-dental.test';
const PROVIDER = 'Contoso Entra';
const NEWCOMER = { sub: 'idp-sam-7', email: `sam.okafor@${DOMAIN}`, name: 'Sam Okafor' };
const NEWCOMER_PASSWORD = 'idp-password-for-sam';
const PARTNER_PROVIDER = 'Northwind Okta';
const TECHNICIAN = { sub: 'idp-ortiz-2', email: 'sam.ortiz@northwind.demo', name: 'Sam Ortiz' };
const TECHNICIAN_PASSWORD = 'idp-password-for-ortiz';

let ts: TestServer;
let idp: TestIdp;
let admin: MfaTechnician;
/** TXT records the server's resolver answers (the test publishes the proof the console shows). */
const txt = new Map<string, string[]>();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // SSO_ALLOW_INSECURE_ISSUER: the IdP speaks http on 127.0.0.1 (test rooms only).
  ts = await startServer(
    { SEED_DEMO: 'true', SSO_ALLOW_INSECURE_ISSUER: 'true' },
    {
      sso: {
        txtResolver: (name) => {
          const records = txt.get(name);
          return records ? Promise.resolve(records.map((r) => [r])) : Promise.reject(new Error('ENODATA'));
        },
      },
    },
  );
  idp = await startTestIdp(`${ts.url}/api/v1/sso/callback`, { loginForm: true });
  idp.addAccount({ ...NEWCOMER, email_verified: true }, NEWCOMER_PASSWORD);
  const password = ts.server.demo?.password ?? '';
  expect(password).not.toBe('');
  // Provider writes need an MFA session: the administrator enrolls TOTP once, then signs in with a fresh code.
  admin = new MfaTechnician(ts, ADMIN, password);
  await admin.enrollTotp();
});

test.afterAll(async () => {
  await idp?.close();
  await ts?.stop();
});

test('an administrator connects an IdP; a new technician signs in through it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await admin.signIn(page, 'Riley');

  // The screen, for the organization: nothing set up yet.
  await page.goto(`${ts.url}/sso`);
  await expect(page.getByTestId('sso-page')).toBeVisible();
  const orgOption = page.getByTestId('sso-owner').locator('option', { hasText: ORG });
  await page.getByTestId('sso-owner').selectOption((await orgOption.getAttribute('value')) ?? '');
  await expect(page.getByTestId('sso-empty')).toContainText(ORG);
  await screen(page, 'sso-01-empty');

  // The guided setup: presets (SAML listed, not offered), the redirect URI, the connection, who signs in.
  await page.getByTestId('sso-setup').click();
  const wizard = page.getByTestId('sso-wizard');
  await expect(wizard.getByTestId('sso-saml-presets')).toContainText('not offered');
  await wizard.getByTestId('sso-preset-other').check();
  await screen(page, 'sso-02-presets');
  await wizard.getByTestId('sso-wizard-next').click();
  await expect(wizard.getByTestId('sso-redirect-uri')).toHaveText(`${ts.url}/api/v1/sso/callback`);
  await screen(page, 'sso-03-redirect-uri');
  await wizard.getByTestId('sso-wizard-next').click();
  await wizard.getByTestId('sso-name').fill(PROVIDER);
  await wizard.getByTestId('sso-issuer').fill(idp.issuer);
  await wizard.getByTestId('sso-client-id').fill(idp.clientId);
  await wizard.getByTestId('sso-client-secret').fill(idp.clientSecret);
  await screen(page, 'sso-04-connection');
  await wizard.getByTestId('sso-wizard-next').click();
  // New people need a starting role: the step refuses to go on without one.
  await wizard.getByTestId('sso-wizard-next').click();
  await expect(wizard.getByText('New users need a role to start with.')).toBeVisible();
  await wizard.getByTestId('sso-default-role').selectOption({ label: 'Organization Technician' });
  await wizard.getByTestId('sso-allowed-domains').fill(DOMAIN);
  await screen(page, 'sso-05-who-signs-in');
  await wizard.getByTestId('sso-wizard-next').click();

  // Created (off); the connection test reads the IdP's discovery document; then it is switched on.
  await expect(wizard.getByTestId('sso-created')).toBeVisible();
  await wizard.getByTestId('sso-test').click();
  await expect(wizard.getByTestId('sso-test-result')).toContainText('Connection works');
  await wizard.getByTestId('sso-status-active').click();
  await expect(wizard.getByTestId('sso-status-active')).toHaveAttribute('aria-checked', 'true');
  await screen(page, 'sso-06-test-and-switch-on');
  await wizard.getByTestId('sso-wizard-done').click();

  // The provider's card: the secret only as "stored", status on.
  const card = page.getByTestId('sso-provider');
  await expect(card).toContainText(PROVIDER);
  await expect(card.getByTestId('sso-fact-secret')).toHaveText('Stored');
  await expect(card.getByTestId('sso-provider-status')).toHaveText('On');
  await expect(page.locator('body')).not.toContainText(idp.clientSecret);

  // Editing keeps the secret write-only: "stored", with a way to replace it, never its value.
  await card.getByTestId('sso-edit').click();
  const edit = page.getByTestId('sso-edit-dialog');
  await expect(edit.getByTestId('sso-secret-stored')).toBeVisible();
  await expect(edit.getByTestId('sso-issuer')).toHaveValue(idp.issuer);
  await screen(page, 'sso-07a-edit');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // The email domain: the console shows the TXT record to publish; once it is there, Check proves it.
  await page.getByTestId('sso-domain-input').fill(DOMAIN);
  await page.getByTestId('sso-domain-add').click();
  const domainRow = page.locator(`[data-testid="sso-domain"][data-domain="${DOMAIN}"]`);
  await expect(domainRow.getByTestId('sso-domain-status')).toHaveText('Waiting for DNS');
  await domainRow.getByTestId('sso-txt-value').scrollIntoViewIfNeeded();
  await screen(page, 'sso-07-domain-waiting');
  await domainRow.getByTestId('sso-domain-check').click();
  await expect(domainRow.getByTestId('sso-domain-error')).toContainText('TXT');
  const txtName = (await domainRow.getByTestId('sso-txt-name').textContent()) ?? '';
  const txtValue = (await domainRow.getByTestId('sso-txt-value').textContent()) ?? '';
  txt.set(txtName, [txtValue]);
  await domainRow.getByTestId('sso-domain-check').click();
  await expect(domainRow.getByTestId('sso-domain-status')).toContainText('Verified');
  await screen(page, 'sso-08-provider-and-domain');

  // Enforcement names who would lose password sign-in and needs a deliberate confirmation; not switched on here.
  await card.getByText('Require single sign-on').click();
  const enforce = page.getByTestId('sso-enforce-dialog');
  await expect(enforce).toBeVisible();
  await expect(enforce.getByTestId('sso-enforce-confirm')).toBeDisabled();
  await expect(
    enforce.getByTestId('sso-enforce-warning').or(enforce.getByTestId('sso-enforce-nobody')),
  ).toBeVisible();
  await screen(page, 'sso-09-enforcement-warning');
  await enforce.getByRole('button', { name: 'Cancel' }).click();
  await expect(enforce).toBeHidden();

  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(`${ts.url}/login`);

  // Another person opens the console afresh (the administrator's last page is not theirs to return to).
  await page.goto(`${ts.url}/login`);

  // The technician: the email's domain offers the provider; the password stays available (not enforced).
  await page.getByTestId('login-email').fill(NEWCOMER.email);
  const sso = page.getByTestId('login-sso');
  await expect(sso).toHaveText(`Continue with ${PROVIDER}`);
  await expect(page.getByTestId('login-password')).toBeVisible();
  await screen(page, 'sso-10-login-offer');
  await sso.click();

  // The IdP's own sign-in page.
  await expect(page.locator('#idp-email')).toBeVisible();
  await page.locator('#idp-email').fill(NEWCOMER.email);
  await page.locator('#idp-password').fill(NEWCOMER_PASSWORD);
  await screen(page, 'sso-11-idp-sign-in');
  await page.locator('#idp-submit').click();

  // Back through the callback and the exchange, onto the overview with a fresh account.
  await expect(page.getByTestId('home-greeting')).toContainText('Sam');
  await expect(page).toHaveURL(`${ts.url}/`);
  await screen(page, 'sso-12-overview');
  expect(errors).toEqual([]);
});

test("a partner's own sign-in page offers the partner's provider to its technicians", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  // The partner provider is set up through the API (the screens were covered above); partner providers sign in
  // technicians who already exist (rule 15), here the demo's Sam Ortiz.
  const token = await admin.apiToken();
  const partner = await apiJson(ts, 'GET', '/orgs/partners/me', undefined, token);
  const created = await apiJson(
    ts,
    'POST',
    '/sso/providers',
    {
      ownerScope: 'partner',
      type: 'oidc',
      name: PARTNER_PROVIDER,
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      autoProvision: false,
    },
    token,
  );
  await apiJson(ts, 'POST', `/sso/providers/${String(created.id)}/status`, { status: 'active' }, token);
  idp.addAccount({ ...TECHNICIAN, email_verified: true }, TECHNICIAN_PASSWORD);
  // The technician uses an authenticator; the provider does not vouch for the IdP's MFA (trustsIdpMfa false), so
  // after the IdP Gatehouse still asks for its own code (rule 16).
  const login = await apiJson(ts, 'POST', '/auth/login', {
    email: TECHNICIAN.email,
    password: ts.server.demo?.password ?? '',
  });
  const secret = (await apiJson(ts, 'POST', '/auth/mfa/setup', {}, String(login.accessToken)))
    .secret as string;
  const enrolled = await freshTotp(secret);
  await apiJson(ts, 'POST', '/auth/mfa/enable', { code: enrolled.code }, String(login.accessToken));

  // The per-partner page by slug (any case) leads with the partner's button.
  await page.goto(`${ts.url}/login?partner=${String(partner.slug).toUpperCase()}`);
  const button = page.getByTestId('login-partner-sso');
  await expect(button).toHaveText(`Continue with ${PARTNER_PROVIDER}`);
  await screen(page, 'sso-14-partner-sign-in');
  await button.click();
  await page.locator('#idp-email').fill(TECHNICIAN.email);
  await page.locator('#idp-password').fill(TECHNICIAN_PASSWORD);
  await page.locator('#idp-submit').click();
  await expect(page.getByTestId('mfa-step')).toBeVisible();
  await screen(page, 'sso-14a-mfa-after-sso');
  const code = await freshTotp(secret, { after: enrolled.step });
  await page.getByTestId('mfa-code').fill(code.code);
  await page.getByTestId('mfa-submit').click();
  await expect(page.getByTestId('home-greeting')).toContainText('Sam');
  await expect(page.getByTestId('user-name')).toHaveText(TECHNICIAN.name);
  expect(errors).toEqual([]);
});

test('enforced single sign-on leads with the provider; a failure comes back with a sentence', async ({
  page,
}) => {
  // Enforcement switched on (through the API; the console's confirmation was shown above): the sign-in page
  // leads with the provider and keeps the password behind a deliberate click (for people it does not govern).
  const token = await admin.apiToken();
  const list = await apiJson(ts, 'GET', '/sso/providers', undefined, token);
  const provider = (list.data as Array<{ id: string; name: string }>).find((p) => p.name === PROVIDER);
  await apiJson(ts, 'PATCH', `/sso/providers/${provider?.id ?? ''}`, { enforceSSO: true }, token);
  await page.goto(`${ts.url}/login`);
  await page.getByTestId('login-email').fill(`someone@${DOMAIN}`);
  await expect(page.getByTestId('login-sso-enforced')).toContainText(PROVIDER);
  await expect(page.getByTestId('login-password')).toHaveCount(0);
  await screen(page, 'sso-15-login-enforced');
  await page.getByRole('button', { name: 'Use a password instead' }).click();
  await expect(page.getByTestId('login-password')).toBeVisible();

  await page.goto(`${ts.url}/login?error=domain_not_allowed`);
  await expect(page.getByTestId('login-sso-error')).toContainText('email domain is not allowed');
  await screen(page, 'sso-13-login-error');
  // A partner page without a provider is the stock sign-in page.
  await page.goto(`${ts.url}/login?partner=no-such-partner`);
  await expect(page.getByTestId('login-email')).toBeVisible();
  await expect(page.getByTestId('login-partner-sso')).toHaveCount(0);
});
