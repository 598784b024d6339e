import { z } from 'zod';
import { DEVICE_FACETS, DEVICE_ROLES, DEVICE_SORTS, DEVICE_STATUSES, OS_TYPES } from '../../contract/devices';
import { paginationQuery } from '../../http/pagination';

// Request shapes of /devices, /groups and /tags. Shape checks live here; rules that need stored state (scope,
// the device's organization, custom field definitions) live in service.ts and groups.ts.

/** Spec 3: the device list pages up to 1000 rows, 500 when `limit` is omitted. */
export const DEVICE_PAGE = { defaultLimit: 500, maxLimit: 1000 } as const;
/** The addendum's bound on `conditions` in the query string. */
export const MAX_CONDITIONS_BYTES = 8 * 1024;

export const uuid = (field: string) =>
  z.uuid({
    error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a UUID`),
  });

/** A comma-separated list of words from `allowed`; blanks are ignored, duplicates collapse. */
export function commaList<const T extends readonly string[]>(field: string, allowed: T) {
  const message = `${field} must be a comma-separated list of ${allowed.join(', ')}`;
  return z.string({ error: message }).transform((raw, ctx) => {
    const values = [
      ...new Set(
        raw
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ];
    if (values.length === 0 || values.some((v) => !allowed.includes(v))) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return values as Array<T[number]>;
  });
}

const tag = z
  .string({ error: 'each tag must be a string' })
  .trim()
  .min(1, 'each tag must be 1-100 characters')
  .max(100, 'each tag must be 1-100 characters');

export const listDevicesQuery = z.object({
  ...paginationQuery(DEVICE_PAGE),
  orgId: uuid('orgId').optional(),
  siteId: uuid('siteId').optional(),
  status: commaList('status', DEVICE_STATUSES).optional(),
  osType: commaList('osType', OS_TYPES).optional(),
  search: z.string().trim().max(255, 'search must be at most 255 characters').optional(),
  tag: z
    .string()
    .trim()
    .min(1, 'tag must be 1-100 characters')
    .max(100, 'tag must be 1-100 characters')
    .optional(),
  groupId: uuid('groupId').optional(),
  filterId: uuid('filterId').optional(),
  conditions: z
    .string()
    .max(MAX_CONDITIONS_BYTES, `conditions must be at most ${MAX_CONDITIONS_BYTES} bytes`)
    .optional(),
  sort: z.enum(DEVICE_SORTS, { error: `sort must be one of ${DEVICE_SORTS.join(', ')}` }).default('hostname'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('asc'),
});
export type ListDevicesQuery = z.infer<typeof listDevicesQuery>;

/**
 * GET /devices/facets: the device list's filters (no paging or sort) and what to count by. `by` is a
 * comma-separated list, and may also be repeated (`by=org&by=status`).
 */
export const deviceFacetsQuery = listDevicesQuery
  .omit({ page: true, limit: true, sort: true, order: true })
  .extend({
    by: z
      .preprocess(
        (raw) => (Array.isArray(raw) ? raw.join(',') : raw),
        commaList('by', DEVICE_FACETS).optional(),
      )
      .transform((by) => by ?? []),
  });
export type DeviceFacetsQuery = z.infer<typeof deviceFacetsQuery>;

/** The device list's filters without paging: what /groups/:id/devices and /tags/devices narrow further. */
export type DeviceListFilter = Omit<ListDevicesQuery, 'page' | 'limit'>;

const customFieldValue = z.union(
  [z.string().max(1000, 'custom field text is at most 1000 characters'), z.number(), z.boolean(), z.null()],
  {
    error: 'custom field values must be a string, number, boolean or null',
  },
);

export const MAX_TAGS = 50;
const CUSTOM_FIELD_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;
const CUSTOM_FIELD_KEY_MESSAGE =
  'custom field keys must be 1-100 characters: a letter, then letters, digits, _, - or .';
export const MAX_CUSTOM_FIELDS = 100;

export const updateDeviceBody = z.object({
  // An empty name means "no display name": the hostname is shown instead.
  displayName: z
    .string({ error: 'displayName must be a string or null' })
    .trim()
    .max(255, 'displayName must be at most 255 characters')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  tags: z
    .array(tag, { error: 'tags must be an array of strings' })
    .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
    .transform((tags) => [...new Set(tags)])
    .optional(),
  siteId: uuid('siteId').nullable().optional(),
  customFields: z
    .record(
      // Keys start with a letter: no `__proto__`-style keys, and every key can be named in a filter.
      z.string().regex(CUSTOM_FIELD_KEY, CUSTOM_FIELD_KEY_MESSAGE),
      customFieldValue,
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? CUSTOM_FIELD_KEY_MESSAGE
            : issue.code === 'invalid_type'
              ? 'customFields must be an object'
              : undefined,
      },
    )
    .refine((o) => Object.keys(o).length <= MAX_CUSTOM_FIELDS, `at most ${MAX_CUSTOM_FIELDS} custom fields`)
    .optional(),
  deviceRole: z
    .enum(DEVICE_ROLES, { error: `deviceRole must be one of ${DEVICE_ROLES.join(', ')}` })
    .optional(),
  autoUpdate: z.boolean({ error: 'autoUpdate must be true or false' }).optional(),
});
export type UpdateDeviceBody = z.infer<typeof updateDeviceBody>;

/** The command types a technician queues by hand (DESIGN §3); PAM and live-query commands have their own routes. */
export const MANUAL_COMMAND_TYPES = ['self_uninstall', 'dev_update'] as const;

export const createCommandBody = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('self_uninstall'),
      payload: z
        .object({ removeConfig: z.boolean({ error: 'payload.removeConfig must be true or false' }) })
        .default({ removeConfig: false }),
    }),
    z.object({
      type: z.literal('dev_update'),
      payload: z.object(
        {
          downloadUrl: z
            .url({ protocol: /^https?$/, error: 'payload.downloadUrl must be an http(s) URL' })
            .max(2048, 'payload.downloadUrl must be at most 2048 characters'),
          checksum: z
            .string({ error: 'payload.checksum is required' })
            .regex(/^[0-9a-fA-F]{64}$/, 'payload.checksum must be a SHA-256 digest (64 hex characters)')
            .transform((v) => v.toLowerCase()),
        },
        { error: 'payload must be an object {downloadUrl, checksum}' },
      ),
    }),
  ],
  { error: `type must be one of ${MANUAL_COMMAND_TYPES.join(', ')}` },
);
export type CreateCommandBody = z.infer<typeof createCommandBody>;

export const pageOnlyQuery = z.object({ ...paginationQuery() });

/** Any string: an id that is not a UUID simply matches nothing (404), like any other unknown id. */
export const idParams = z.object({ id: z.string() });

// ---- groups and tags --------------------------------------------------------------------------------------------

const groupName = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must be 1-255 characters')
  .max(255, 'name must be 1-255 characters');
const groupDescription = z
  .string({ error: 'description must be a string or null' })
  .trim()
  .max(2000, 'description must be at most 2000 characters')
  .transform((v) => (v === '' ? null : v))
  .nullable();

export const listGroupsQuery = z.object({
  ...paginationQuery({ defaultLimit: 100, maxLimit: 500 }),
  orgId: uuid('orgId').optional(),
  siteId: uuid('siteId').optional(),
  search: z.string().trim().max(255, 'search must be at most 255 characters').optional(),
});

export const createGroupBody = z.object({
  /** Required for partner and system scope; inferred for organization scope and API keys. */
  orgId: uuid('orgId').optional(),
  siteId: uuid('siteId').nullable().optional(),
  name: groupName,
  description: groupDescription.optional(),
});
export type CreateGroupBody = z.infer<typeof createGroupBody>;

export const updateGroupBody = z.object({
  name: groupName.optional(),
  description: groupDescription.optional(),
  siteId: uuid('siteId').nullable().optional(),
});
export type UpdateGroupBody = z.infer<typeof updateGroupBody>;

export const MAX_MEMBERS_PER_REQUEST = 1000;

export const addMembersBody = z.object({
  deviceIds: z
    .array(uuid('deviceIds'), { error: 'deviceIds must be an array of device ids' })
    .min(1, 'deviceIds must not be empty')
    .max(MAX_MEMBERS_PER_REQUEST, `at most ${MAX_MEMBERS_PER_REQUEST} devices per request`)
    .transform((ids) => [...new Set(ids)]),
});

export const memberParams = z.object({ id: z.string(), deviceId: z.string() });

export const listTagsQuery = z.object({
  orgId: uuid('orgId').optional(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});

export const tagDevicesQuery = listDevicesQuery.extend({
  tag: z
    .string({ error: 'tag is required' })
    .trim()
    .min(1, 'tag is required')
    .max(100, 'tag must be at most 100 characters'),
});
