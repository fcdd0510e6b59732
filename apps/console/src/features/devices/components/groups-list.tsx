import type { DeviceGroup } from '@kontrol/contracts';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useDeviceGroups } from '../../../lib/device-groups/get-device-groups';

/** The groups view's query-string parameters (besides `view=groups`). */
export const GROUP_LIST_PARAMS = { q: '', page: '1' } as const;

/**
 * Device groups, a page at a time from the server (docs/contract.md, "Entities": page and filters), searched by name;
 * page and search live in the query string.
 */
export function GroupsList() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParamsState(GROUP_LIST_PARAMS);
  const page = Math.max(1, Number.parseInt(params.page, 10) || 1);
  // The server filters: the URL (and so the request) changes after a pause in typing.
  const [searchText, setSearchText] = useSearchText(params.q, (q) =>
    setParams({ q, page: '1' }, { replace: true }),
  );
  const query = useDeviceGroups({ page, search: params.q });
  const columns = useMemo<DataTableColumn<DeviceGroup>[]>(
    () => [
      {
        id: 'name',
        header: t('Group name'),
        width: 'minmax(12rem, 2fr)',
        cell: (group) => (
          <Anchor component={Link} to={paths.account.devices.group(group.id)} fz="sm">
            {group.name}
          </Anchor>
        ),
      },
      {
        id: 'description',
        header: t('Description'),
        width: 'minmax(12rem, 3fr)',
        cell: (group) => group.description ?? '',
      },
      {
        id: 'devices_count',
        header: t('Devices'),
        width: '8rem',
        align: 'end',
        cell: (group) => group.devices_count,
      },
    ],
    [t],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search groups')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button component={Link} to={paths.account.devices.groupAdd}>
          {t('Add group')}
        </Button>
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Groups')}
        pagesLabel={t('Pages of the groups')}
        page={page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
    </Stack>
  );
}
