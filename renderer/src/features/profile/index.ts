// The public surface of the profile feature: what the route table and other features may import.

export { ProfilePage } from './ProfilePage';
