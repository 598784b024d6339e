import { useDocumentTitle } from '../../lib/hooks';

export function VerifyEmailPage() {
  useDocumentTitle('VerifyEmail');
  return <div className="page" />;
}
