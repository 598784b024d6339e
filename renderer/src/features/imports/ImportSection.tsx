import { useDocumentTitle } from '../../lib/hooks';
import { Link, usePathname } from '../../lib/router';
import { useSession } from '../../lib/session';
import { AdminPage, Alert, PageNotFound, Tabs } from '../../ui';
import { contactImportModel } from './contact-model';
import { ImportWizard } from './ImportWizard';
import { orgImportModel } from './org-model';
import './imports.css';
import './imports-results.css';

// /import           organizations and sites
// /import/contacts  contacts of those organizations
// Both need a partner administrator (organization and site write over every organization of the partner) in a
// session verified with the second factor; the hint says so before the first request is refused.

const TABS = [
  { to: '/import', label: 'Organizations and sites', testId: 'import-tab-organizations' },
  { to: '/import/contacts', label: 'Contacts', testId: 'import-tab-contacts' },
];

export function ImportSection() {
  const pathname = usePathname();
  const contacts = pathname === '/import/contacts';
  useDocumentTitle(contacts ? 'Import contacts' : 'Import organizations');
  if (pathname !== '/import' && !contacts)
    return (
      <div className="page adm">
        <PageNotFound pathname={pathname} />
      </div>
    );
  return (
    <AdminPage
      className="im-page"
      testId="import-page"
      head={{
        title: 'Import',
        back: { to: '/tenants', label: 'Tenants' },
        sub: 'Move an estate in from another tool: your customers, their sites and contacts from a CSV file, previewed before anything is written.',
      }}
    >
      <Tabs label="What to import" current={pathname} tabs={TABS} />
      <ImportHint />
      {contacts ? (
        <ImportWizard key="contacts" model={contactImportModel} />
      ) : (
        <ImportWizard key="organizations" model={orgImportModel} />
      )}
    </AdminPage>
  );
}

/** Why an import will be refused, said before the technician prepares a file. */
function ImportHint() {
  const user = useSession((s) => s.user);
  const mfa = useSession((s) => s.mfa);
  const pathname = usePathname();
  if (!user) return null;
  if (user.scope !== 'partner')
    return (
      <Alert tone="info" testId="import-scope-hint">
        Imports belong to one partner: they are made by a partner administrator, inside their partner.
      </Alert>
    );
  if (!user.mfaEnabled)
    return (
      <Alert tone="info" testId="import-mfa-hint">
        Imports need two-step verification.{' '}
        <Link to={`/mfa/enroll?returnTo=${encodeURIComponent(pathname)}`}>Set it up now</Link>; you can look
        at your file without it.
      </Alert>
    );
  if (!mfa)
    return (
      <Alert tone="info" testId="import-mfa-hint">
        This session was not verified with your second factor, so the preview will be refused. Sign out and
        sign in again with your code first.
      </Alert>
    );
  return null;
}
