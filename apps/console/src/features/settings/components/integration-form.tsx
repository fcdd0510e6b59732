import {
  INTEGRATION_KINDS,
  INTEGRATION_NAME_MAX_LENGTH,
  type IntegrationBody,
  type IntegrationKind,
} from '@kontrol/contracts';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { useIntegrationLabels } from '../integration-labels';

/** The add form's fields, named as `integrationBodySchema` names them (the server's 422 paths). */
export interface IntegrationFormValues extends Record<string, unknown> {
  kind: IntegrationKind;
  name: string;
  user_id: string;
}

const FIELDS = ['kind', 'name', 'user_id'];

/**
 * The new integration: its kind (Telegram for now), a name people recognise it by, and whose
 * notifications it carries (`users`, the signed-in user first and preselected; disabled users,
 * who can receive nothing, are left out).
 */
export function IntegrationForm<Result>({
  me,
  users,
  usersLoading,
  submit,
  onSuccess,
}: {
  me: { id: number; name: string };
  users: readonly { id: number; name: string; email?: string; disabled?: boolean }[];
  usersLoading: boolean;
  submit: (body: IntegrationBody) => Promise<Result>;
  onSuccess: (result: Result) => void;
}) {
  const { t } = useTranslation();
  const labels = useIntegrationLabels();
  const { form, onSubmit, submitting, failure } = useApiForm<IntegrationFormValues, Result>({
    initialValues: { kind: 'telegram', name: '', user_id: String(me.id) },
    submit: (values) =>
      submit({ kind: values.kind, name: values.name.trim(), user_id: Number(values.user_id) }),
    onSuccess: (result) => onSuccess(result),
  });

  const userOptions = useMemo(() => {
    const others = users
      .filter((user) => user.id !== me.id && !user.disabled)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((user) => ({
        value: String(user.id),
        label: user.email ? `${user.name} (${user.email})` : user.name,
      }));
    return [{ value: String(me.id), label: t('{{name}} (me)', { name: me.name }) }, ...others];
  }, [users, me, t]);

  const shownFields =
    failure?.kind === 'validation' ? Object.keys(failure.errors).filter((f) => FIELDS.includes(f)) : [];

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg" maw={560}>
        <FormFailure failure={failure} fields={shownFields} />
        <Select
          label={t('Kind')}
          name="kind"
          required
          allowDeselect={false}
          data={INTEGRATION_KINDS.map((kind) => ({ value: kind, label: labels.kind[kind] }))}
          {...form.getInputProps('kind')}
        />
        <TextInput
          label={t('Integration name')}
          name="name"
          required
          maxLength={INTEGRATION_NAME_MAX_LENGTH}
          description={t('How the integration is shown in the list, e.g. “Shift manager’s phone”.')}
          {...form.getInputProps('name')}
        />
        <Select
          label={t('For whom')}
          name="user_id"
          required
          allowDeselect={false}
          searchable
          limit={100}
          nothingFoundMessage={t('Nothing found')}
          description={t(
            'The integration carries this user’s notifications, as their notification settings choose.',
          )}
          data={userOptions}
          rightSection={usersLoading ? <span aria-hidden="true">…</span> : undefined}
          {...form.getInputProps('user_id')}
        />
        <Group>
          <Button type="submit" loading={submitting}>
            {t('Add integration')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
