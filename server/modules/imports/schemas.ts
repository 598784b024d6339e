import { z } from 'zod';
import { IMPORT_MAX_ROWS } from '../../contract/imports';

// Request shapes of the import endpoints (spec 3, Import rows). Rows are JSON (the console parses the CSV). What
// makes one row unusable without touching the others (an unknown time zone, an unknown role) is checked per row
// by the matchers and reported on that row; only the shape of the request is refused here with 400.

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional()
    // A blank CSV cell means "not given": imports never clear stored data.
    .transform((v) => (v === '' ? undefined : v));

const rows = <T extends z.ZodType>(row: T) =>
  z
    .array(row, { error: 'rows must be an array' })
    .min(1, 'rows must not be empty')
    .max(IMPORT_MAX_ROWS, `at most ${IMPORT_MAX_ROWS} rows per request`);

const mode = z.enum(['skip', 'update'], { error: "mode must be 'skip' or 'update'" }).default('skip');

// ---- organizations and sites ---------------------------------------------------------------------------------

const orgRowFields = {
  organization: z
    .string({ error: 'organization is required' })
    .trim()
    .min(1, 'organization is required')
    .max(255, 'organization must be at most 255 characters'),
  site: optionalText('site', 255),
  externalId: optionalText('externalId', 255),
  externalSystem: optionalText('externalSystem', 100),
  timezone: optionalText('timezone', 100),
  address: z.record(z.string(), z.unknown(), { error: 'address must be an object' }).optional(),
  contact: z
    .strictObject({
      name: optionalText('contact.name', 255),
      email: optionalText('contact.email', 320),
      phone: optionalText('contact.phone', 50),
    })
    .optional(),
};

export const ORG_ANNOTATIONS = [
  'create',
  'link-match',
  'name-match',
  'matched-soft-deleted',
  'conflict',
] as const;

export const orgPreviewBody = z.object({ rows: rows(z.object(orgRowFields)) });
export const orgCommitRow = z.object({
  ...orgRowFields,
  expectedAnnotation: z.enum(ORG_ANNOTATIONS).optional(),
  expectedOrganizationId: z.uuid('expectedOrganizationId must be a UUID').optional(),
  reactivate: z.boolean().optional(),
  forceCreate: z.boolean().optional(),
});
export const orgCommitBody = z.object({ rows: rows(orgCommitRow), mode });
export type OrgCommitRow = z.infer<typeof orgCommitRow>;
export type OrgRowInput = z.infer<typeof orgPreviewBody>['rows'][number];

// ---- contacts ------------------------------------------------------------------------------------------------

export const CONTACT_ANNOTATIONS = [
  'create',
  'link-match',
  'email-match',
  'name-match',
  'conflict',
  'org-not-found',
] as const;

const contactRowFields = {
  organizationId: z.uuid('organizationId must be a UUID').optional(),
  organization: optionalText('organization', 255),
  site: optionalText('site', 255),
  name: optionalText('name', 255),
  email: optionalText('email', 320),
  phone: optionalText('phone', 50),
  mobile: optionalText('mobile', 50),
  title: optionalText('title', 255),
  // Checked per row (invalid-role), so one bad value does not sink the file.
  roles: z.array(z.string().trim(), { error: 'roles must be an array of strings' }).max(50).optional(),
  externalId: optionalText('externalId', 255),
  externalSystem: optionalText('externalSystem', 100),
};

// A row with none of name, email, phone, mobile rejects the whole request (spec 3); that check names the row and
// its code (`no-identifier`), so it is made by the contact import itself rather than here.
const contactRow = z
  .object(contactRowFields)
  .refine((r) => r.organizationId ?? r.organization, 'organizationId or organization is required');
const contactCommitRow = z
  .object({
    ...contactRowFields,
    expectedAnnotation: z.enum(CONTACT_ANNOTATIONS).optional(),
    expectedContactId: z.uuid('expectedContactId must be a UUID').optional(),
  })
  .refine((r) => r.organizationId ?? r.organization, 'organizationId or organization is required');

const partnerId = z.uuid('partnerId must be a UUID').optional();
export const contactPreviewBody = z.object({ rows: rows(contactRow), partnerId });
export const contactCommitBody = z.object({ rows: rows(contactCommitRow), mode, partnerId });
export type ContactCommitRow = z.infer<typeof contactCommitRow>;
