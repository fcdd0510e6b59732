import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { RolesList } from '../components/roles-list';
import { UsersList } from '../components/users-list';

/**
 * `/account/users`: the users list, and with `?view=roles` the access roles (docs/contract.md, "Screens and routes" names
 * `users/roles/add` and `users/roles/{id}` but no roles list: it is a view of this page, as the
 * groups are of the devices page). Each view keeps its own search and filters in the query string;
 * switching views starts the other afresh.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const view = searchParams.get('view') === 'roles' ? 'roles' : 'users';
  return (
    <Tabs
      value={view}
      onChange={(next) => {
        if (next && next !== view) {
          void navigate(next === 'roles' ? paths.account.users.roles : paths.account.users.list);
        }
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="users">{t('Users')}</Tabs.Tab>
        <Tabs.Tab value="roles">{t('Access roles')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="users">
        <UsersList />
      </Tabs.Panel>
      <Tabs.Panel value="roles">
        <RolesList />
      </Tabs.Panel>
    </Tabs>
  );
}
