import { useDocumentTitle } from '../../lib/hooks';

export function ForgotPasswordPage() {
  useDocumentTitle('ForgotPassword');
  return <div className="page" />;
}
