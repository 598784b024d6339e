// The public surface of the management posture feature: what the route table imports.
export { PosturePage } from './PosturePage';
