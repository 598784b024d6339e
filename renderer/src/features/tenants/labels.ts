import type {
  OrganizationStatus,
  OrganizationType,
  PartnerPlan,
  PartnerStatus,
  PartnerType,
} from '../../../../server/contract';

export type { Tone } from '../../ui';
import type { Tone } from '../../ui';

export const ORG_TYPES: Array<{ value: OrganizationType; label: string }> = [
  { value: 'customer', label: 'Customer' },
  { value: 'internal', label: 'Internal' },
];

export const ORG_STATUSES: Array<{ value: OrganizationStatus; label: string; tone: Tone }> = [
  { value: 'active', label: 'Active', tone: 'ok' },
  { value: 'trial', label: 'Trial', tone: 'muted' },
  { value: 'suspended', label: 'Suspended', tone: 'warn' },
  { value: 'churned', label: 'Churned', tone: 'bad' },
];

export const PARTNER_TYPES: Array<{ value: PartnerType; label: string }> = [
  { value: 'msp', label: 'MSP' },
  { value: 'enterprise', label: 'Enterprise' },
  { value: 'internal', label: 'Internal' },
];

export const PARTNER_PLANS: Array<{ value: PartnerPlan; label: string }> = [
  { value: 'free', label: 'Free' },
  { value: 'starter', label: 'Starter' },
  { value: 'community', label: 'Community' },
  { value: 'pro', label: 'Pro' },
  { value: 'enterprise', label: 'Enterprise' },
  { value: 'unlimited', label: 'Unlimited' },
];

export const PARTNER_STATUSES: Array<{ value: PartnerStatus; label: string; tone: Tone; effect: string }> = [
  {
    value: 'active',
    label: 'Active',
    tone: 'ok',
    effect: 'Users, API keys and agents of this partner work normally.',
  },
  {
    value: 'pending',
    label: 'Pending',
    tone: 'muted',
    effect: 'Blocks API access for every user of this partner (they are told the partner is not active yet).',
  },
  {
    value: 'suspended',
    label: 'Suspended',
    tone: 'warn',
    effect: 'Blocks API access for every user of this partner until it is active again.',
  },
  {
    value: 'offboarding',
    label: 'Offboarding',
    tone: 'warn',
    effect: 'Revokes all access at once and drains the agents, then the partner becomes churned.',
  },
  {
    value: 'churned',
    label: 'Churned',
    tone: 'bad',
    effect: 'Blocks API access for every user of this partner.',
  },
];

export function orgStatusOf(value: string): { label: string; tone: Tone } {
  return ORG_STATUSES.find((s) => s.value === value) ?? { label: value, tone: 'muted' };
}

export function partnerStatusOf(value: string): { label: string; tone: Tone } {
  return PARTNER_STATUSES.find((s) => s.value === value) ?? { label: value, tone: 'muted' };
}

export function labelOf<T extends string>(list: Array<{ value: T; label: string }>, value: string): string {
  return list.find((item) => item.value === value)?.label ?? value;
}
