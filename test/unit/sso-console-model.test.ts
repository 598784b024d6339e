// What the console's single sign-on screens send (renderer/src/features/sso/model.ts): a setup from a preset, the
// problems that keep a step from going on, the create body for each kind of owner, and an edit that sends only what
// changed, the write-only secret only when a new one was typed.
import { describe, expect, it } from 'vitest';
import type { SsoPreset, SsoProvider } from '../../server/contract/sso';
import {
  createBody,
  draftFromPreset,
  draftFromProvider,
  updateBody,
  validateDraft,
} from '../../renderer/src/features/sso/model';

const OKTA: SsoPreset = {
  id: 'okta',
  name: 'Okta',
  type: 'oidc',
  scopes: 'openid profile email groups',
  attributeMapping: { email: 'email', name: 'name', groups: 'groups' },
  issuerTemplate: 'https://<your-domain>.okta.com',
  loginSupported: true,
};

const ORG = { kind: 'organization', id: 'org-1' } as const;
const PARTNER = { kind: 'partner', id: 'partner-1' } as const;

const provider = (over: Partial<SsoProvider> = {}): SsoProvider => ({
  id: 'p1',
  ownerScope: 'organization',
  orgId: 'org-1',
  partnerId: 'partner-1',
  name: 'Contoso Okta',
  type: 'oidc',
  preset: 'okta',
  issuer: 'https://contoso.okta.com',
  clientId: 'client-1',
  hasClientSecret: true,
  scopes: 'openid profile email groups',
  attributeMapping: { email: 'email', name: 'name', groups: 'groups' },
  autoProvision: true,
  defaultRoleId: 'role-1',
  allowedDomains: 'contoso.com,contoso.co.uk',
  enforceSSO: false,
  trustsIdpMfa: false,
  status: 'inactive',
  authorizationUrl: null,
  tokenUrl: null,
  userInfoUrl: null,
  jwksUrl: null,
  redirectUri: 'https://console.example/api/v1/sso/callback',
  createdAt: '2026-11-27T06:00:00.000Z',
  updatedAt: '2026-11-27T06:00:00.000Z',
  ...over,
});

describe('a setup from a preset', () => {
  it('takes the preset’s name, scopes and claims; organizations provision, partners never do', () => {
    const org = draftFromPreset(OKTA, ORG);
    expect(org).toMatchObject({ preset: 'okta', name: 'Okta', scopes: OKTA.scopes, autoProvision: true });
    expect(org.mapping.groups).toBe('groups');
    expect(draftFromPreset(OKTA, PARTNER).autoProvision).toBe(false);
    expect(draftFromPreset(null, ORG)).toMatchObject({
      preset: null,
      name: '',
      scopes: 'openid profile email',
    });
  });

  it('names each missing field, and the secret only when none is stored', () => {
    const empty = draftFromPreset(null, ORG);
    expect(Object.keys(validateDraft(empty, false)).sort()).toEqual([
      'clientId',
      'clientSecret',
      'defaultRoleId',
      'issuer',
      'name',
    ]);
    expect(validateDraft({ ...empty, issuer: 'contoso.okta.com' }, true).issuer).toMatch(/must be a URL/);
    expect(validateDraft(empty, true).clientSecret).toBeUndefined();
    expect(validateDraft({ ...empty, autoProvision: false }, true).defaultRoleId).toBeUndefined();
  });
});

describe('the create body', () => {
  const draft = {
    ...draftFromPreset(OKTA, ORG),
    issuer: ' https://contoso.okta.com ',
    clientId: 'client-1',
    clientSecret: 's3cret',
    defaultRoleId: 'role-1',
    mapping: { email: 'email', name: 'name', firstName: ' ', lastName: '', groups: 'groups' },
  };

  it('names the organization, trims, and leaves out claims that are not used', () => {
    const body = createBody(draft, ORG);
    expect(body).toMatchObject({
      type: 'oidc',
      ownerScope: 'organization',
      orgId: 'org-1',
      preset: 'okta',
      issuer: 'https://contoso.okta.com',
      clientSecret: 's3cret',
      defaultRoleId: 'role-1',
    });
    expect(body.attributeMapping).toEqual({ email: 'email', name: 'name', groups: 'groups' });
    expect(body).not.toHaveProperty('partnerId');
  });

  it('names the partner for a partner provider, without a default role', () => {
    const body = createBody({ ...draft, autoProvision: false }, PARTNER);
    expect(body).toMatchObject({ ownerScope: 'partner', partnerId: 'partner-1', autoProvision: false });
    expect(body).not.toHaveProperty('orgId');
    expect(body).not.toHaveProperty('defaultRoleId');
  });
});

describe('an edit', () => {
  it('sends nothing when nothing changed (the stored secret is not sent back)', () => {
    expect(updateBody(draftFromProvider(provider()), provider())).toEqual({});
  });

  it('sends only the changed fields, a new secret when typed, and null to clear the role', () => {
    const before = provider();
    const draft = {
      ...draftFromProvider(before),
      name: 'Contoso SSO',
      clientSecret: 'rotated',
      autoProvision: false,
      defaultRoleId: '',
    };
    expect(updateBody(draft, before)).toEqual({
      name: 'Contoso SSO',
      clientSecret: 'rotated',
      autoProvision: false,
      defaultRoleId: null,
    });
  });

  it('shows the stored domains as a readable list and sends them again only when edited', () => {
    const draft = draftFromProvider(provider());
    expect(draft.allowedDomains).toBe('contoso.com, contoso.co.uk');
    expect(updateBody({ ...draft, allowedDomains: 'contoso.com' }, provider())).toEqual({
      allowedDomains: 'contoso.com',
    });
  });
});
