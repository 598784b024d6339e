import { useDocumentTitle } from '../../lib/hooks';

export function AcceptInvitePage() {
  useDocumentTitle('AcceptInvite');
  return <div className="page" />;
}
