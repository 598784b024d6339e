// The public surface of the pam-policy feature: what the route table and other features may import.

export { PamPolicySection } from './PamPolicySection';
