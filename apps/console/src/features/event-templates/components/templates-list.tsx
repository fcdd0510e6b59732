import type { DeviceEventTemplate, DeviceType } from '@kontrol/contracts';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeleteTemplate } from '../api/delete-template';

/** The templates view's query-string parameters. */
export const TEMPLATE_LIST_PARAMS = { q: '', sort: 'name' } as const;

interface TemplateRow {
  template: DeviceEventTemplate;
  typeName: string;
}

function parseSort(sort: string): DataTableSort {
  return sort.startsWith('-') ? { id: sort.slice(1), desc: true } : { id: sort, desc: false };
}

/**
 * The organisation's current templates from the reference data (no request of its own), searched
 * by name and description and sorted in memory; search and sort live in the query string. Each
 * row deletes its template after a confirmation that says how many devices lose their norm.
 */
export function TemplatesList() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const templates = useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates');
  const types = useReferenceList<DeviceType>(user, 'deviceTypes');
  const [params, setParams] = useSearchParamsState(TEMPLATE_LIST_PARAMS);
  const [searchText, setSearchText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  const search = useDeferredValue(searchText).trim().toLocaleLowerCase();
  const remove = useDeleteTemplate();
  const [deleting, setDeleting] = useState<DeviceEventTemplate | null>(null);

  const rows = useMemo<TemplateRow[]>(() => {
    const typeNames = new Map(types.map((type) => [type.id, type.name]));
    return templates
      .filter(
        (template) =>
          !search ||
          template.name.toLocaleLowerCase().includes(search) ||
          (template.description ?? '').toLocaleLowerCase().includes(search),
      )
      .map((template) => ({ template, typeName: typeNames.get(template.device_type_id) ?? '' }));
  }, [templates, types, search]);
  const sort = useMemo(() => parseSort(params.sort), [params.sort]);
  const columns = useMemo<DataTableColumn<TemplateRow>[]>(() => {
    return [
      {
        id: 'name',
        header: t('Template name'),
        width: 'minmax(12rem, 2fr)',
        sortValue: (row) => row.template.name,
        cell: (row) => (
          <Anchor component={Link} to={paths.account.deviceEventTemplates.detail(row.template.id)} fz="sm">
            {row.template.name}
          </Anchor>
        ),
      },
      {
        id: 'type',
        header: t('Device type'),
        width: 'minmax(10rem, 1.5fr)',
        sortValue: (row) => row.typeName,
        cell: (row) => row.typeName,
      },
      {
        id: 'devices',
        header: t('Devices'),
        width: '8rem',
        align: 'end',
        sortValue: (row) => row.template.device_ids.length,
        cell: (row) => row.template.device_ids.length,
      },
      {
        id: 'rules',
        header: t('Rules'),
        width: '7rem',
        align: 'end',
        sortValue: (row) => row.template.rules.length,
        cell: (row) => row.template.rules.length,
      },
      {
        id: 'updated',
        header: t('Updated'),
        width: 'minmax(10rem, 1fr)',
        sortValue: (row) => Date.parse(row.template.updated_at),
        cell: (row) => formatDateTime(row.template.updated_at),
      },
      {
        id: 'actions',
        header: t('Actions'),
        width: '8rem',
        cell: (row) => (
          <Button
            size="compact-sm"
            color="red"
            variant="subtle"
            onClick={() => setDeleting(row.template)}
            aria-label={t('Delete the template «{{name}}»', { name: row.template.name })}
          >
            {t('Delete')}
          </Button>
        ),
      },
    ];
  }, [t]);

  const devicesLosing = deleting?.device_ids.length ?? 0;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search templates')}
          placeholder={t('Name or description')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button component={Link} to={paths.account.deviceEventTemplates.add}>
          {t('Add template')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {t('{{shown}} of {{total}} templates', { shown: rows.length, total: templates.length })}
      </Text>
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => String(row.template.id)}
        label={t('Current templates')}
        sort={sort}
        onSortChange={(next) => setParams({ sort: next.desc ? `-${next.id}` : next.id })}
      />
      <ConfirmDeleteModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('Delete the template «{{name}}»?', { name: deleting?.name ?? '' })}
        message={
          devicesLosing > 0
            ? t(
                'Devices using it: {{count}}. They lose their norm, and its rules stop watching them. This cannot be undone.',
                {
                  count: devicesLosing,
                },
              )
            : t('No device uses it. This cannot be undone.')
        }
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
      />
    </Stack>
  );
}
