import type { AclRole, User } from '@kontrol/contracts';
import { Anchor, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import { getLocale } from '../../../lib/i18n';
import { moduleLabel } from '../../../lib/module-labels';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

/** The roles view's query-string parameters (besides `view=roles`). */
export const ROLE_LIST_PARAMS = { q: '' } as const;

interface RoleRow {
  role: AclRole;
  modules: string;
  users: number;
}

/**
 * The organisation's access roles from the reference data (no request of its own), with their
 * modules and how many users hold each (counted in the users reference list), searched by name.
 * Admins see "Add role".
 */
export function RolesList() {
  const { t } = useTranslation();
  const language = getLocale();
  const current = useCurrentUser();
  const roles = useReferenceList<AclRole>(current, 'aclRoles');
  const users = useReferenceList<User>(current, 'users');
  const [params, setParams] = useSearchParamsState(ROLE_LIST_PARAMS);
  const [searchText, setSearchText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  const search = useDeferredValue(searchText).trim().toLocaleLowerCase();

  const rows = useMemo<RoleRow[]>(() => {
    const holders = new Map<number, number>();
    for (const user of users) {
      if (user.acl_role_id !== null) holders.set(user.acl_role_id, (holders.get(user.acl_role_id) ?? 0) + 1);
    }
    return roles
      .filter((role) => !search || role.name.toLocaleLowerCase().includes(search))
      .map((role) => ({
        role,
        modules: role.modules.map((module) => moduleLabel(module.slug, language)).join(', '),
        users: holders.get(role.id) ?? 0,
      }));
    // The module labels follow the interface language.
  }, [roles, users, search, language]);

  const columns = useMemo<DataTableColumn<RoleRow>[]>(
    () => [
      {
        id: 'name',
        header: t('Role name'),
        width: 'minmax(12rem, 2fr)',
        cell: ({ role }) => (
          <Group gap="xs" wrap="nowrap">
            <Anchor component={Link} to={paths.account.users.role(role.id)} fz="sm">
              {role.name}
            </Anchor>
            {role.is_admin_role && (
              <Badge variant="light" color="gray" size="sm">
                {t('Built in')}
              </Badge>
            )}
          </Group>
        ),
      },
      {
        id: 'modules',
        header: t('Sections'),
        width: 'minmax(16rem, 4fr)',
        cell: ({ modules }) => (
          <Text fz="sm" truncate="end" title={modules}>
            {modules || '—'}
          </Text>
        ),
      },
      { id: 'users', header: t('Users'), width: '7rem', align: 'end', cell: ({ users }) => users },
    ],
    [t],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search roles')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        {current.isAdmin && (
          <Button component={Link} to={paths.account.users.roleAdd}>
            {t('Add role')}
          </Button>
        )}
      </Group>
      <DataTable
        data={rows}
        columns={columns}
        getRowId={({ role }) => String(role.id)}
        label={t('Access roles')}
      />
    </Stack>
  );
}
