import { useDocumentTitle } from '../../lib/hooks';

export function KeysPage() {
  useDocumentTitle('Keys');
  return <div className="page" />;
}
