import { z } from 'zod';

// Request shapes of /sso (spec 1 "SSO provider" fields). URLs are plain strings here: whether Gatehouse may talk
// to them is endpoints.ts's question, asked when they are used.

const uuid = (field: string) => z.uuid(`${field} must be a UUID`);
const name = z
  .string()
  .trim()
  .min(1, 'name must be 1-255 characters')
  .max(255, 'name must be 1-255 characters');
const url = (field: string) => z.url(`${field} must be a URL`).max(2048, `${field} is too long`);
const claim = z.string().trim().min(1).max(255);

export const attributeMappingSchema = z.object({
  email: claim,
  name: claim,
  firstName: claim.optional(),
  lastName: claim.optional(),
  groups: claim.optional(),
});

/** Comma-separated email domains: each a host name (lowercased, no `@`), normalised to `a.com,b.org`. */
const allowedDomains = z
  .string()
  .max(2048)
  .transform((text) =>
    text
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine((list) => list.every((d) => DOMAIN.test(d)), 'allowedDomains must be comma-separated email domains')
  .transform((list) => [...new Set(list)].join(','));

export const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const providerFields = {
  name,
  preset: z.string().max(64).optional(),
  issuer: url('issuer').optional(),
  clientId: z.string().trim().min(1).max(512).optional(),
  clientSecret: z.string().min(1).max(4096).optional(),
  scopes: z.string().trim().min(1).max(1024).optional(),
  attributeMapping: attributeMappingSchema.optional(),
  autoProvision: z.boolean().optional(),
  defaultRoleId: uuid('defaultRoleId').optional(),
  allowedDomains: allowedDomains.optional(),
  enforceSSO: z.boolean().optional(),
  trustsIdpMfa: z.boolean().optional(),
};

export const createProviderBody = z.object({
  ownerScope: z.enum(['organization', 'partner']).default('organization'),
  orgId: uuid('orgId').optional(),
  /** Partner providers: the partner (system callers must name it; partner callers may, as their own). */
  partnerId: uuid('partnerId').optional(),
  type: z.enum(['oidc', 'saml'], { error: 'type must be oidc or saml' }),
  ...providerFields,
});
export type CreateProviderBody = z.infer<typeof createProviderBody>;

export const updateProviderBody = z.object({
  name: name.optional(),
  preset: providerFields.preset.nullable(),
  issuer: providerFields.issuer,
  clientId: providerFields.clientId,
  /** null removes the secret. */
  clientSecret: z.string().min(1).max(4096).nullable().optional(),
  scopes: providerFields.scopes,
  attributeMapping: providerFields.attributeMapping,
  autoProvision: providerFields.autoProvision,
  defaultRoleId: uuid('defaultRoleId').nullable().optional(),
  allowedDomains: providerFields.allowedDomains,
  enforceSSO: providerFields.enforceSSO,
  trustsIdpMfa: providerFields.trustsIdpMfa,
  authorizationUrl: url('authorizationUrl').optional(),
  tokenUrl: url('tokenUrl').optional(),
  userInfoUrl: url('userInfoUrl').optional(),
  jwksUrl: url('jwksUrl').optional(),
});
export type UpdateProviderBody = z.infer<typeof updateProviderBody>;

export const statusBody = z.object({
  status: z.enum(['active', 'inactive', 'testing'], { error: 'status must be active, inactive or testing' }),
});

export const providerIdParams = z.object({ id: uuid('id') });
export const orgIdParams = z.object({ orgId: uuid('orgId') });
export const partnerIdParams = z.object({ partnerId: uuid('partnerId') });

export const listProvidersQuery = z.object({
  orgId: uuid('orgId').optional(),
  partnerId: uuid('partnerId').optional(),
});

/** Where the console should land after sign-in: a path on this origin, never another site. */
export const loginQuery = z.object({
  redirect: z
    .string()
    .max(512)
    .regex(/^\/(?![/\\])[^\s]*$/, 'redirect must be a path on this site')
    .optional(),
});

/** The IdP's answer; anything else it adds (iss, session_state) is read from the full URL by openid-client. */
export const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
});

/** Rule 15: a per-partner sign-in page is addressed by the partner's slug. */
export const partnerSignInQuery = z.object({ slug: z.string().trim().min(1).max(100).optional() });

export const exchangeBody = z.object({ code: z.string().min(1, 'code is required').max(200) });
export const discoveryBody = z.object({ email: z.email('Invalid email address').max(255) });

export const domainBody = z.object({
  orgId: uuid('orgId'),
  domain: z.string().trim().toLowerCase().regex(DOMAIN, 'domain must be a domain name such as example.com'),
});
export const domainListQuery = z.object({ orgId: uuid('orgId') });
