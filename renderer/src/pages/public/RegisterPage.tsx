import { useDocumentTitle } from '../../lib/hooks';

export function RegisterPage() {
  useDocumentTitle('Register');
  return <div className="page" />;
}
