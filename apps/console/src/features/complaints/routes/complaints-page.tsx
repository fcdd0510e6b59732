import { COMPLAINT_PRIORITIES, COMPLAINT_STATUSES, type Complaint } from '@kontrol/contracts';
import { Anchor, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useAssignees } from '../use-assignees';
import { useComplaints } from '../api/get-complaints';
import { COMPLAINT_LIST_PARAMS, complaintListRequest } from '../complaint-filters';
import { useComplaintLabels } from '../complaint-labels';
import { PriorityBadge, StatusBadge } from '../components/complaint-badges';
import { ComplaintSubject } from '../components/complaint-subject';
import { useComplaintReferences } from '../use-complaint-references';

/**
 * `/account/requests`: the organisation's complaints, newest first, a page at a time from the
 * server, filtered by status (open ones — new and in progress — by default), priority, device,
 * address, assignee and title; every filter and the page live in the query string.
 */
export function ComplaintsPage() {
  const { t } = useTranslation();
  const labels = useComplaintLabels();
  const references = useComplaintReferences();
  const assignees = useAssignees();
  const [params, setParams] = useSearchParamsState(COMPLAINT_LIST_PARAMS);
  const request = useMemo(() => complaintListRequest(params), [params]);
  const query = useComplaints(request);
  const { data } = query;
  const [searchText, setSearchText] = useSearchText(params.q, (q) =>
    setParams({ q, page: '1' }, { replace: true }),
  );

  const statusOptions = useMemo(
    () => [
      { value: 'open', label: t('Open (new and in progress)') },
      { value: 'all', label: t('All') },
      ...COMPLAINT_STATUSES.map((value) => ({ value, label: labels.status[value] })),
    ],
    [t, labels],
  );
  const deviceOptions = useMemo(
    () => references.devices.map((device) => ({ value: String(device.id), label: device.name })),
    [references.devices],
  );
  const addressOptions = useMemo(
    () => references.addresses.map((address) => ({ value: String(address.id), label: address.name })),
    [references.addresses],
  );
  const assigneeOptions = useMemo(
    () => [
      { value: 'none', label: t('Nobody') },
      ...assignees.map((assignee) => ({ value: String(assignee.id), label: assignee.name })),
    ],
    [t, assignees],
  );

  const columns = useMemo<DataTableColumn<Complaint>[]>(() => {
    return [
      {
        id: 'title',
        header: t('Title'),
        width: 'minmax(14rem, 3fr)',
        cell: (complaint) => (
          <Anchor component={Link} to={paths.account.requests.detail(complaint.id)} fz="sm" truncate="end">
            {complaint.title}
          </Anchor>
        ),
      },
      {
        id: 'subject',
        header: t('Device or address'),
        width: 'minmax(12rem, 2fr)',
        cell: (complaint) => <ComplaintSubject complaint={complaint} references={references} inline />,
      },
      {
        id: 'priority',
        header: t('Priority'),
        width: '8rem',
        cell: (complaint) => <PriorityBadge priority={complaint.priority} />,
      },
      {
        id: 'status',
        header: t('Status'),
        width: '9rem',
        cell: (complaint) => <StatusBadge status={complaint.status} />,
      },
      {
        id: 'assignee',
        header: t('Assignee'),
        width: 'minmax(9rem, 1.2fr)',
        cell: (complaint) => (
          <Text size="sm" truncate component="span">
            {complaint.assignee?.name ?? '—'}
          </Text>
        ),
      },
      {
        id: 'created_at',
        header: t('Filed'),
        width: '9rem',
        cell: (complaint) => formatDateTime(complaint.created_at),
      },
      {
        id: 'comments_count',
        header: t('Comments'),
        width: '7rem',
        align: 'end',
        cell: (complaint) => formatNumber(complaint.comments_count),
      },
    ];
  }, [t, references]);

  const filtered =
    params.status !== COMPLAINT_LIST_PARAMS.status ||
    params.priority !== '' ||
    params.device !== '' ||
    params.address !== '' ||
    params.assignee !== '' ||
    params.q !== '';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search complaints')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button component={Link} to={paths.account.requests.add}>
          {t('New complaint')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="md">
        <Select
          label={t('Status')}
          data={statusOptions}
          value={request.status}
          onChange={(value) => setParams({ status: value ?? COMPLAINT_LIST_PARAMS.status, page: '1' })}
          allowDeselect={false}
        />
        <Select
          label={t('Priority')}
          placeholder={t('All')}
          data={COMPLAINT_PRIORITIES.map((value) => ({ value, label: labels.priority[value] }))}
          value={request.priority}
          onChange={(value) => setParams({ priority: value ?? '', page: '1' })}
          clearable
        />
        <Select
          label={t('Device')}
          placeholder={t('All')}
          data={deviceOptions}
          value={request.device === null ? null : String(request.device)}
          onChange={(value) => setParams({ device: value ?? '', page: '1' })}
          clearable
          searchable
          limit={100}
          nothingFoundMessage={t('Nothing found')}
        />
        <Select
          label={t('Address')}
          placeholder={t('All')}
          data={addressOptions}
          value={request.address === null ? null : String(request.address)}
          onChange={(value) => setParams({ address: value ?? '', page: '1' })}
          clearable
          searchable
          nothingFoundMessage={t('Nothing found')}
        />
        <Select
          label={t('Assignee')}
          placeholder={t('All')}
          data={assigneeOptions}
          value={request.assignee === null ? null : String(request.assignee)}
          onChange={(value) => setParams({ assignee: value ?? '', page: '1' })}
          clearable
          searchable
          nothingFoundMessage={t('Nothing found')}
        />
      </SimpleGrid>
      <Group gap="md">
        {data && (
          <Text size="sm" c="dimmed" role="status">
            {t('Found: {{count}}', { count: formatNumber(data.meta.total) })}
          </Text>
        )}
        {filtered && (
          <Button variant="subtle" size="compact-sm" onClick={() => setParams({ ...COMPLAINT_LIST_PARAMS })}>
            {t('Reset filters')}
          </Button>
        )}
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Complaints')}
        pagesLabel={t('Pages of the complaints')}
        page={request.page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
    </Stack>
  );
}
