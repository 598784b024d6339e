import {
  PARTNER_KEY_SCOPES,
  PARTNER_WRITE_CAP_PER_HOUR,
  type PartnerKeyScope,
} from '../../../../server/contract';

// The five scopes of a partner provisioning key (spec 3), in words. A Record over the contract's union: a scope
// added there fails to compile here until it is described.

export const PARTNER_SCOPE_LABELS: Record<PartnerKeyScope, string> = {
  'organizations:read': 'List organizations',
  'organizations:write': 'Create organizations',
  'sites:read': 'List sites',
  'sites:write': 'Create sites',
  'enrollment-keys:write': 'Create enrollment keys',
};

export const PARTNER_SCOPES: readonly PartnerKeyScope[] = PARTNER_KEY_SCOPES;

/** The write bucket's ceiling whatever a key asks. */
export const PARTNER_WRITE_CAP = PARTNER_WRITE_CAP_PER_HOUR;
