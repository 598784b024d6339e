// The public surface of the settings feature: what the route table and other features may import.

export { SettingsPage } from './SettingsPage';
