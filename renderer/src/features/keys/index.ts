// The public surface of the keys feature: what the route table and other features may import.

export { KeysPage } from './KeysPage';
