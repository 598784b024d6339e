import { usePathname } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { PageNotFound, Tabs } from '../../ui';
import { UsersView } from './UsersView';
import { RolesView } from './RolesView';
import { RoleEditor } from './RoleEditor';
import './people.css';

// /users                 people of the caller's tenant
// /users/roles           roles with user counts
// /users/roles/new       a new custom role
// /users/roles/:id       one role: details, permission matrix, its users

export function PeoplePage() {
  const pathname = usePathname();
  const roleMatch = /^\/users\/roles\/([^/]+)$/.exec(pathname);
  useDocumentTitle(pathname.startsWith('/users/roles') ? 'Roles' : 'Users');

  const tabs = (
    <Tabs
      label="Users and roles"
      current={pathname}
      tabs={[
        { to: '/users', label: 'Users', testId: 'tab-users' },
        { to: '/users/roles', label: 'Roles', testId: 'tab-roles' },
      ]}
    />
  );

  let body;
  if (roleMatch?.[1])
    body = <RoleEditor roleId={roleMatch[1] === 'new' ? null : decodeURIComponent(roleMatch[1])} />;
  else if (pathname === '/users/roles') body = <RolesView tabs={tabs} />;
  else if (pathname === '/users') body = <UsersView tabs={tabs} />;
  else body = <PageNotFound pathname={pathname} />;

  return (
    <div className="page adm" data-testid="people-page">
      {body}
    </div>
  );
}
