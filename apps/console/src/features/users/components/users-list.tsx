import type { AclRole, User } from '@kontrol/contracts';
import { USER_ROLES, USER_STATUSES } from '@kontrol/contracts';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useUsers } from '../api/get-users';
import { aclRoleName, STATE_COLOURS, userState, useUserLabels } from '../user-labels';

/** The users view's query-string parameters. */
export const USER_LIST_PARAMS = { q: '', role: '', status: '', acl_role: '', page: '1' } as const;

/**
 * The organisation's users, a page at a time from the server, searched (a name, or an e-mail when
 * the search holds `@`) and filtered by role, e-mail status and access role; page, search and
 * filters live in the query string. Admins see "Invite user".
 */
export function UsersList() {
  const { t } = useTranslation();
  const current = useCurrentUser();
  const labels = useUserLabels();
  const roles = useReferenceList<AclRole>(current, 'aclRoles');
  const [params, setParams] = useSearchParamsState(USER_LIST_PARAMS);
  const page = Math.max(1, Number.parseInt(params.page, 10) || 1);
  // The server searches: the URL (and so the request) changes after a pause in typing.
  const [searchText, setSearchText] = useSearchText(params.q, (q) =>
    setParams({ q, page: '1' }, { replace: true }),
  );
  const query = useUsers({
    page,
    search: params.q,
    role: params.role,
    status: params.status,
    aclRoleId: params.acl_role,
  });

  const columns = useMemo<DataTableColumn<User>[]>(
    () => [
      {
        id: 'name',
        header: t('Name'),
        width: 'minmax(12rem, 2fr)',
        cell: (user) => (
          <Anchor component={Link} to={paths.account.users.detail(user.id)} fz="sm">
            {user.name}
          </Anchor>
        ),
      },
      { id: 'email', header: t('E-mail'), width: 'minmax(14rem, 2fr)', cell: (user) => user.email },
      { id: 'role', header: t('Role'), width: 'minmax(9rem, 1fr)', cell: (user) => labels.role[user.role] },
      {
        id: 'status',
        header: t('Status'),
        width: 'minmax(10rem, 1fr)',
        cell: (user) => {
          const state = userState(user);
          return (
            <Badge variant="light" color={STATE_COLOURS[state]}>
              {labels.state[state]}
            </Badge>
          );
        },
      },
      {
        id: 'acl_role',
        header: t('Access role'),
        width: 'minmax(10rem, 1fr)',
        cell: (user) => (user.acl_role ? aclRoleName(user.acl_role, roles) : '—'),
      },
    ],
    [t, labels, roles],
  );
  const filter = (patch: Partial<Record<keyof typeof USER_LIST_PARAMS, string>>) =>
    setParams({ ...patch, page: '1' });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Group align="end" gap="sm">
          <TextInput
            label={t('Search users')}
            placeholder={t('Name, or an e-mail with @')}
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.currentTarget.value)}
            w={{ base: '100%', sm: 260 }}
          />
          <Select
            label={t('Role')}
            placeholder={t('Any')}
            data={USER_ROLES.map((role) => ({ value: role, label: labels.role[role] }))}
            value={params.role || null}
            onChange={(value) => filter({ role: value ?? '' })}
            clearable
            w={{ base: '100%', sm: 180 }}
          />
          <Select
            label={t('Status')}
            placeholder={t('Any')}
            data={[...USER_STATUSES, 'disabled' as const].map((status) => ({
              value: status,
              label: labels.state[status],
            }))}
            value={params.status || null}
            onChange={(value) => filter({ status: value ?? '' })}
            clearable
            w={{ base: '100%', sm: 180 }}
          />
          <Select
            label={t('Access role')}
            placeholder={t('Any')}
            data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
            value={params.acl_role || null}
            onChange={(value) => filter({ acl_role: value ?? '' })}
            clearable
            searchable
            nothingFoundMessage={t('Nothing found')}
            w={{ base: '100%', sm: 200 }}
          />
        </Group>
        {current.isAdmin && (
          <Button component={Link} to={paths.account.users.add}>
            {t('Invite user')}
          </Button>
        )}
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Users')}
        pagesLabel={t('Pages of the users')}
        page={page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
    </Stack>
  );
}
