import type { ContactRole } from '../../../../server/contract';

// The spec's contact roles in words (a Record over the contract's union, so a new role fails to compile here).

export const CONTACT_ROLE_LABELS: Record<ContactRole, string> = {
  billing: 'Billing',
  technical: 'Technical',
  escalation: 'Escalation',
  admin: 'Admin',
  site: 'Site',
  after_hours: 'After hours',
  portal: 'Portal',
};
