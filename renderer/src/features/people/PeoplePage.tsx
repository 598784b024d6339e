import { usePathname } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { SubPages, Tabs, type TabSpec } from '../../ui';
import { UsersView } from './UsersView';
import { RolesView } from './RolesView';
import { RoleEditor } from './RoleEditor';
import './people.css';

// /users                 people of the caller's tenant
// /users/roles           roles with user counts
// /users/roles/new       a new custom role
// /users/roles/:id       one role: details, permission matrix, its users

const TABS: TabSpec[] = [
  { to: '/users', label: 'Users', testId: 'tab-users' },
  { to: '/users/roles', label: 'Roles', testId: 'tab-roles' },
];

export function PeoplePage() {
  const pathname = usePathname();
  useDocumentTitle(pathname.startsWith('/users/roles') ? 'Roles' : 'Users');
  const tabs = <Tabs label="Users and roles" current={pathname} tabs={TABS} />;
  return (
    <SubPages
      pathname={pathname}
      testId="people-page"
      pages={[
        {
          path: /^\/users\/roles\/([^/]+)$/,
          render: (id) => <RoleEditor roleId={id === 'new' ? null : id} />,
        },
        { path: '/users/roles', render: () => <RolesView tabs={tabs} /> },
        { path: '/users', render: () => <UsersView tabs={tabs} /> },
      ]}
    />
  );
}
