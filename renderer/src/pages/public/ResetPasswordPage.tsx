import { useDocumentTitle } from '../../lib/hooks';

export function ResetPasswordPage() {
  useDocumentTitle('ResetPassword');
  return <div className="page" />;
}
