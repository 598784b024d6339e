import { useDocumentTitle } from '../../lib/hooks';

export function SettingsPage() {
  useDocumentTitle('Settings');
  return <div className="page" />;
}
