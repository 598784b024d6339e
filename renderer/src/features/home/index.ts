// The public surface of the home feature: what the route table and other features may import.

export { HomePage } from './HomePage';
