// The public surface of the imports feature: what the route table may import.

export { ImportSection } from './ImportSection';
