import { useDocumentTitle } from '../../lib/hooks';

export function PeoplePage() {
  useDocumentTitle('Users & roles');
  return <div className="page" />;
}
