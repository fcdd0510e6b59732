import {
  COMPLAINT_PRIORITIES,
  COMPLAINT_TRANSITIONS,
  type Complaint,
  type ComplaintEvent,
  type ComplaintEventBody,
  type ComplaintStatus,
} from '@kontrol/contracts';
import { Button, Group, Input, Select, Stack, Text } from '@mantine/core';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { isAbortError, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import type { Assignee } from '../use-assignees';
import { useComplaintLabels } from '../complaint-labels';
import { StatusBadge } from './complaint-badges';

/**
 * What moves a complaint along: a button for each status it may go to from its own
 * (COMPLAINT_TRANSITIONS; closing, which is final, asks first), and its assignee and priority —
 * not once it is closed, when it takes comments only. Each change is sent at once and lands in the
 * timeline.
 */
export function ComplaintControls({
  complaint,
  assignees,
  submit,
}: {
  complaint: Complaint;
  assignees: readonly Assignee[];
  submit: (body: ComplaintEventBody) => Promise<ComplaintEvent[]>;
}) {
  const { t } = useTranslation();
  const labels = useComplaintLabels();
  const statusLabelId = useId();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);

  const send = async (body: ComplaintEventBody) => {
    setPending(true);
    setFailure(null);
    try {
      await submit(body);
    } catch (error) {
      if (!isAbortError(error)) setFailure(toApiFailure(error));
      throw error;
    } finally {
      setPending(false);
    }
  };
  const change = (body: ComplaintEventBody) => void send(body).catch(() => undefined);
  const move = (to: ComplaintStatus) => {
    if (to === 'closed') setConfirmClose(true);
    else change({ status: to });
  };

  // The current assignee stays offered even when the users cannot be listed.
  const assigneeOptions = useMemo(() => {
    const options = assignees.map((assignee) => ({ value: String(assignee.id), label: assignee.name }));
    const current = complaint.assignee;
    if (current && !assignees.some((assignee) => assignee.id === current.id)) {
      options.unshift({ value: String(current.id), label: current.name });
    }
    return options;
  }, [assignees, complaint.assignee]);
  const moves = COMPLAINT_TRANSITIONS[complaint.status];

  return (
    <Stack gap="md">
      <FormFailure failure={failure} fields={[]} />
      <Stack gap={6} role="group" aria-labelledby={statusLabelId}>
        <Input.Label id={statusLabelId} component="span">
          {t('Status')}
        </Input.Label>
        <Group gap="sm">
          <StatusBadge status={complaint.status} />
        </Group>
        {moves.length > 0 ? (
          <Group gap="xs">
            {moves.map((to) => (
              <Button
                key={to}
                size="xs"
                variant={to === 'closed' ? 'outline' : 'light'}
                color={to === 'closed' ? 'gray' : undefined}
                disabled={pending}
                onClick={() => move(to)}
              >
                {labels.move(complaint.status, to)}
              </Button>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('The complaint is finished.')}
          </Text>
        )}
      </Stack>
      {/* A closed complaint takes comments only (docs/complaints.md). */}
      {moves.length > 0 && (
        <>
          <Select
            label={t('Assignee')}
            placeholder={t('Nobody')}
            data={assigneeOptions}
            value={complaint.assignee ? String(complaint.assignee.id) : null}
            onChange={(value) => change({ assignee_id: value ? Number(value) : null })}
            searchable
            clearable
            disabled={pending}
            nothingFoundMessage={t('Nothing found')}
          />
          <Select
            label={t('Priority')}
            data={COMPLAINT_PRIORITIES.map((value) => ({ value, label: labels.priority[value] }))}
            value={complaint.priority}
            onChange={(value) => {
              const priority = COMPLAINT_PRIORITIES.find((option) => option === value);
              if (priority && priority !== complaint.priority) change({ priority });
            }}
            allowDeselect={false}
            disabled={pending}
          />
        </>
      )}
      <ConfirmDeleteModal
        opened={confirmClose}
        onClose={() => setConfirmClose(false)}
        title={t('Finish the complaint «{{title}}»?', { title: complaint.title })}
        message={t('A finished complaint cannot be reopened.')}
        confirmLabel={t('Finish the complaint')}
        onConfirm={() => submit({ status: 'closed' })}
      />
    </Stack>
  );
}
