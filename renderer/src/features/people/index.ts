// The public surface of the people feature: what the route table and other features may import.

export { PeoplePage } from './PeoplePage';
