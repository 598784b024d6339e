import { useDocumentTitle } from '../../lib/hooks';

export function TenantsPage() {
  useDocumentTitle('Tenants');
  return <div className="page" />;
}
