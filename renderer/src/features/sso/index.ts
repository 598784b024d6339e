// The public surface of the single sign-on feature: what the route table may import.

export { SsoSection } from './SsoSection';
