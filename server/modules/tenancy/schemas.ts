import { z } from 'zod';
import {
  ORGANIZATION_STATUSES,
  ORGANIZATION_TYPES,
  PARTNER_PLANS,
  PARTNER_STATUSES,
  PARTNER_TYPES,
  SERVICE_MANAGEMENT_MODES,
} from '../../contract/tenancy';

// Request schemas of /orgs (spec 1, Partner / Organization / Site and Partner settings). Shape checks live here;
// rules that need stored state (slug clashes, caps, merged settings, the caller's address) live in service.ts.

/** Lowercase letters, digits and hyphens: safe in a URL path segment without escaping. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(SLUG, 'must contain only lowercase letters, digits and single hyphens (URL-safe)');

const name = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
const uuid = (field: string) => z.uuid(`${field} must be a UUID`);
const freeObject = z.record(z.string(), z.unknown());
const cap = z.number().int('must be an integer').min(0, 'must not be negative').max(10_000_000);
const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

/**
 * An IANA time zone the runtime knows, returned in its canonical spelling (`europe/berlin` -> `Europe/Berlin`).
 * Offsets such as `+01:00` are refused: they are not IANA names and would not follow daylight saving.
 */
export function canonicalTimeZone(value: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const timeZone = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((value, ctx) => {
      const canonical = canonicalTimeZone(value);
      if (!canonical || canonical.length > max) {
        ctx.addIssue({ code: 'custom', message: `unknown IANA time zone: ${value}` });
        return z.NEVER;
      }
      return canonical;
    });

// ---- Partner settings -----------------------------------------------------------------------------------------

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM (00:00-23:59)');
const businessDay = z.strictObject({ start: clock, end: clock, closed: z.boolean().optional() });

const emailShape = z.email();
/** An email address, or '' to clear the field. */
const optionalEmail = z
  .string()
  .trim()
  .max(255, 'must be at most 255 characters')
  .refine((v) => v === '' || emailShape.safeParse(v).success, 'must be a valid email address');

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
/** An http(s) URL, or '' to clear the field. */
const website = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((v) => v === '' || isWebUrl(v), 'must be an http or https URL');

const assuranceLevel = z.number().int().min(1, 'must be 1, 2 or 3').max(3, 'must be 1, 2 or 3');

/**
 * A settings patch: every key optional, nested objects partial, because settings are merged key by key (only
 * sent keys are overwritten). Unknown top-level and `security` keys are kept (other features store their policy
 * there, e.g. `security.approvalStepUp`); the fully specified objects refuse unknown keys so typos surface.
 */
export const partnerSettingsPatch = z.looseObject({
  timezone: timeZone(100).optional(),
  dateFormat: z.enum(['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD']).optional(),
  timeFormat: z.enum(['12h', '24h']).optional(),
  language: z.literal('en', "only 'en' is supported").optional(),
  businessHours: z
    .strictObject({
      preset: z.enum(['24/7', 'business', 'extended', 'custom']).optional(),
      custom: z
        .strictObject({
          monday: businessDay.optional(),
          tuesday: businessDay.optional(),
          wednesday: businessDay.optional(),
          thursday: businessDay.optional(),
          friday: businessDay.optional(),
          saturday: businessDay.optional(),
          sunday: businessDay.optional(),
        })
        .optional(),
    })
    .optional(),
  contact: z
    .strictObject({
      name: z.string().trim().max(255).optional(),
      email: optionalEmail.optional(),
      phone: z.string().trim().max(50).optional(),
      website: website.optional(),
    })
    .optional(),
  security: z
    .looseObject({
      // Entries are validated one by one in the service, so the error can name the bad entry.
      ipAllowlist: z
        .array(z.string().max(100, 'entry too long'))
        .max(1000, 'at most 1000 entries')
        .optional(),
      // DESIGN §5: the approval step-up policy; floors are assurance levels 1-3 per request risk.
      approvalStepUp: z
        .strictObject({
          mode: z.enum(['off', 'grace', 'enforce']).optional(),
          floors: z
            .strictObject({
              low: assuranceLevel.optional(),
              medium: assuranceLevel.optional(),
              high: assuranceLevel.optional(),
              critical: assuranceLevel.optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});
export type PartnerSettingsPatch = z.infer<typeof partnerSettingsPatch>;

// ---- Partners -------------------------------------------------------------------------------------------------

export const idParams = z.object({ id: uuid('id') });

export const createPartnerBody = z.object({
  name,
  slug,
  type: z.enum(PARTNER_TYPES).optional(),
  plan: z.enum(PARTNER_PLANS).optional(),
  maxOrganizations: cap.nullable().optional(),
  maxDevices: cap.nullable().optional(),
  billingEmail: z.email('must be a valid email address').max(255).nullable().optional(),
});
export type CreatePartnerBody = z.infer<typeof createPartnerBody>;

/** System administrators may change any partner field (spec 1: `PATCH /orgs/partners/:id`). */
export const updatePartnerBody = z.object({
  name: name.optional(),
  slug: slug.optional(),
  type: z.enum(PARTNER_TYPES).optional(),
  plan: z.enum(PARTNER_PLANS).optional(),
  maxOrganizations: cap.nullable().optional(),
  maxDevices: cap.nullable().optional(),
  settings: partnerSettingsPatch.optional(),
  serviceManagementMode: z.enum(SERVICE_MANAGEMENT_MODES).optional(),
  serviceManagementPsaConnectionId: uuid('serviceManagementPsaConnectionId').nullable().optional(),
  ssoConfig: freeObject.optional(),
  billingEmail: z.email('must be a valid email address').max(255).nullable().optional(),
  status: z.enum(PARTNER_STATUSES).optional(),
});
export type UpdatePartnerBody = z.infer<typeof updatePartnerBody>;

/** What a partner's own administrators may change (spec 1: `PATCH /orgs/partners/me`). */
export const updateOwnPartnerBody = updatePartnerBody.pick({
  name: true,
  billingEmail: true,
  settings: true,
  serviceManagementMode: true,
  serviceManagementPsaConnectionId: true,
});
export type UpdateOwnPartnerBody = z.infer<typeof updateOwnPartnerBody>;

// ---- Organizations --------------------------------------------------------------------------------------------

/** The keys of organization settings that other features read; everything else is kept as sent. */
const organizationSettings = z.looseObject({
  security: z
    .looseObject({
      requireMfa: z.boolean('must be a boolean').optional(),
      allowedMfaMethods: z.looseObject({ sms: z.boolean('must be a boolean').optional() }).optional(),
    })
    .optional(),
});

export const listOrganizationsQuery = z.object({ partnerId: uuid('partnerId').optional() });

export const createOrganizationBody = z.object({
  name,
  slug,
  type: z.enum(ORGANIZATION_TYPES).optional(),
  status: z.enum(ORGANIZATION_STATUSES).optional(),
  maxDevices: cap.nullable().optional(),
  contractStart: isoDate.nullable().optional(),
  contractEnd: isoDate.nullable().optional(),
  partnerId: uuid('partnerId').optional(),
  settings: organizationSettings.optional(),
  billingContact: freeObject.optional(),
});
export type CreateOrganizationBody = z.infer<typeof createOrganizationBody>;

export const updateOrganizationBody = z.object({
  name: name.optional(),
  slug: slug.optional(),
  type: z.enum(ORGANIZATION_TYPES).optional(),
  status: z.enum(ORGANIZATION_STATUSES).optional(),
  maxDevices: cap.nullable().optional(),
  contractStart: isoDate.nullable().optional(),
  contractEnd: isoDate.nullable().optional(),
  settings: organizationSettings.optional(),
  ssoConfig: freeObject.optional(),
  billingContact: freeObject.optional(),
  // Accepted only to refuse a change with a clear message (partnerId is fixed after create).
  partnerId: z.string().optional(),
});
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBody>;

// ---- Sites ----------------------------------------------------------------------------------------------------

export const listSitesQuery = z.object({
  orgId: uuid('orgId').optional(),
  organizationId: uuid('organizationId').optional(),
});

export const createSiteBody = z.object({
  orgId: uuid('orgId'),
  name,
  timezone: timeZone(50).optional(),
  address: freeObject.optional(),
  contact: freeObject.optional(),
  settings: freeObject.optional(),
});
export type CreateSiteBody = z.infer<typeof createSiteBody>;

export const updateSiteBody = z.object({
  name: name.optional(),
  timezone: timeZone(50).optional(),
  address: freeObject.optional(),
  contact: freeObject.optional(),
  settings: freeObject.optional(),
  // Accepted only to refuse a change with a clear message (a site never moves to another organization).
  orgId: z.string().optional(),
});
export type UpdateSiteBody = z.infer<typeof updateSiteBody>;
