import type {
  CreateProviderBody,
  SsoAttributeMapping,
  SsoPreset,
  SsoProvider,
  SsoProviderStatus,
  UpdateProviderBody,
} from '../../../../server/contract';

// The provider form as the screens edit it, and how it becomes the create and update bodies. The client secret is
// write-only (spec 1): the form starts with an empty secret and sends one only when the administrator typed it.

export const DEFAULT_SCOPES = 'openid profile email';

/** Whose single sign-on: an organization (its users) or a partner (its own technicians), spec 1 ownerScope. */
export interface SsoOwner {
  kind: 'organization' | 'partner';
  id: string;
}

export interface ProviderDraft {
  /** The preset the setup started from; null for another OIDC provider. */
  preset: string | null;
  name: string;
  issuer: string;
  clientId: string;
  /** A new secret to store; '' keeps the stored one. */
  clientSecret: string;
  scopes: string;
  mapping: Required<SsoAttributeMapping>;
  allowedDomains: string;
  autoProvision: boolean;
  defaultRoleId: string;
  trustsIdpMfa: boolean;
}

export type DraftErrors = Partial<
  Record<'name' | 'issuer' | 'clientId' | 'clientSecret' | 'defaultRoleId', string>
>;

const fullMapping = (m: SsoAttributeMapping): Required<SsoAttributeMapping> => ({
  email: m.email,
  name: m.name,
  firstName: m.firstName ?? '',
  lastName: m.lastName ?? '',
  groups: m.groups ?? '',
});

/** A fresh setup from a preset (or none); partner providers never auto-provision (spec 1 rule 15). */
export function draftFromPreset(preset: SsoPreset | null, owner: SsoOwner): ProviderDraft {
  return {
    preset: preset?.id ?? null,
    name: preset?.name ?? '',
    issuer: '',
    clientId: '',
    clientSecret: '',
    scopes: preset?.scopes ?? DEFAULT_SCOPES,
    mapping: fullMapping(preset?.attributeMapping ?? { email: 'email', name: 'name' }),
    allowedDomains: '',
    autoProvision: owner.kind === 'organization',
    defaultRoleId: '',
    trustsIdpMfa: false,
  };
}

export function draftFromProvider(p: SsoProvider): ProviderDraft {
  return {
    preset: p.preset,
    name: p.name,
    issuer: p.issuer ?? '',
    clientId: p.clientId ?? '',
    clientSecret: '',
    scopes: p.scopes,
    mapping: fullMapping(p.attributeMapping),
    allowedDomains: p.allowedDomains.split(',').filter(Boolean).join(', '),
    autoProvision: p.autoProvision,
    defaultRoleId: p.defaultRoleId ?? '',
    trustsIdpMfa: p.trustsIdpMfa,
  };
}

function isUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** What must be fixed before the form is sent; `hasSecret`: a secret is already stored. */
export function validateDraft(d: ProviderDraft, hasSecret: boolean): DraftErrors {
  const errors: DraftErrors = {};
  if (!d.name.trim()) errors.name = 'Give the provider a name your technicians will recognise.';
  if (!d.issuer.trim()) errors.issuer = 'The issuer URL comes from your identity provider.';
  else if (!isUrl(d.issuer.trim()))
    errors.issuer = 'The issuer must be a URL, such as https://login.example.com';
  if (!d.clientId.trim()) errors.clientId = 'The client (application) ID comes from your identity provider.';
  if (!hasSecret && !d.clientSecret)
    errors.clientSecret = 'Paste the client secret your identity provider issued.';
  if (d.autoProvision && !d.defaultRoleId) errors.defaultRoleId = 'New users need a role to start with.';
  return errors;
}

const mappingOf = (m: Required<SsoAttributeMapping>): SsoAttributeMapping => {
  const out: SsoAttributeMapping = { email: m.email.trim(), name: m.name.trim() };
  if (m.firstName.trim()) out.firstName = m.firstName.trim();
  if (m.lastName.trim()) out.lastName = m.lastName.trim();
  if (m.groups.trim()) out.groups = m.groups.trim();
  return out;
};

export function createBody(d: ProviderDraft, owner: SsoOwner): CreateProviderBody {
  return {
    type: 'oidc',
    ownerScope: owner.kind,
    ...(owner.kind === 'organization' ? { orgId: owner.id } : { partnerId: owner.id }),
    name: d.name.trim(),
    ...(d.preset ? { preset: d.preset } : {}),
    issuer: d.issuer.trim(),
    clientId: d.clientId.trim(),
    clientSecret: d.clientSecret,
    scopes: d.scopes.trim() || DEFAULT_SCOPES,
    attributeMapping: mappingOf(d.mapping),
    autoProvision: d.autoProvision,
    ...(d.autoProvision && d.defaultRoleId ? { defaultRoleId: d.defaultRoleId } : {}),
    allowedDomains: d.allowedDomains,
    trustsIdpMfa: d.trustsIdpMfa,
  };
}

/** Only what changed, so the audit entry names the fields the administrator touched. */
export function updateBody(d: ProviderDraft, p: SsoProvider): UpdateProviderBody {
  const before = draftFromProvider(p);
  const body: UpdateProviderBody = {};
  if (d.name.trim() !== before.name) body.name = d.name.trim();
  if (d.issuer.trim() !== before.issuer) body.issuer = d.issuer.trim();
  if (d.clientId.trim() !== before.clientId) body.clientId = d.clientId.trim();
  if (d.clientSecret) body.clientSecret = d.clientSecret;
  if (d.scopes.trim() !== before.scopes) body.scopes = d.scopes.trim() || DEFAULT_SCOPES;
  if (JSON.stringify(mappingOf(d.mapping)) !== JSON.stringify(mappingOf(before.mapping)))
    body.attributeMapping = mappingOf(d.mapping);
  if (d.allowedDomains !== before.allowedDomains) body.allowedDomains = d.allowedDomains;
  if (d.autoProvision !== before.autoProvision) body.autoProvision = d.autoProvision;
  if (d.defaultRoleId !== before.defaultRoleId) body.defaultRoleId = d.defaultRoleId || null;
  if (d.trustsIdpMfa !== before.trustsIdpMfa) body.trustsIdpMfa = d.trustsIdpMfa;
  return body;
}

/** Spec 1 "SSO provider status", in the words the status control uses. */
export const STATUS_TEXT: Record<SsoProviderStatus, { label: string; hint: string }> = {
  inactive: { label: 'Off', hint: 'Nobody signs in with this provider.' },
  testing: {
    label: 'Testing',
    hint: 'Being tried out: not offered at sign-in yet. Use Test connection, then switch it on.',
  },
  active: { label: 'On', hint: 'Offered at sign-in. When several are on, the oldest one is used.' },
};
