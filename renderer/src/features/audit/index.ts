// The public surface of the audit feature: what the route table may import.

export { AuditSection } from './AuditSection';
