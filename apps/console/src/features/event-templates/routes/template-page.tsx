import type { Device, DeviceEventTemplate, DeviceType } from '@kontrol/contracts';
import { Alert, Anchor, Divider, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeleteTemplate } from '../api/delete-template';
import { useTemplate } from '../api/get-template';
import { useUpdateTemplate } from '../api/update-template';
import { TemplateForm } from '../components/template-form';

/** A route id of digits only, as a number; anything else is no record. */
export function parseId(value: string | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** `/account/device_event_templates/{id}`: the template editor, its events, and deleting it. */
export function TemplatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const id = parseId(useParams().id);
  const { data: template, isPending, error } = useTemplate(id ?? 0);
  const types = useReferenceList<DeviceType>(user, 'deviceTypes');
  const devices = useReferenceList<Device>(user, 'devices');
  const templates = useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates');
  const update = useUpdateTemplate(id ?? 0);
  const remove = useDeleteTemplate();
  const [saved, setSaved] = useState(false);

  const back = (
    <Anchor component={Link} to={paths.account.deviceEventTemplates.list} size="sm">
      ← {t('All templates')}
    </Anchor>
  );
  if (id === null || !template) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Template not found')}
        back={back}
      />
    );
  }

  const count = template.device_ids.length;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        {back}
        <Anchor
          component={Link}
          to={paths.account.deviceEventTemplates.events({ template: template.id })}
          size="sm"
        >
          {t('Events of this template')}
        </Anchor>
      </Group>
      <Title order={2}>{template.name}</Title>
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      <TemplateForm
        // A template saved elsewhere (or this one after saving) starts the form afresh.
        key={`${template.id}-${template.updated_at}`}
        template={template}
        types={types}
        devices={devices}
        templates={templates}
        submit={(body) => {
          setSaved(false);
          return update.mutateAsync(body);
        }}
        onSuccess={() => setSaved(true)}
        submitLabel={t('Save')}
      />
      <Divider />
      <div>
        <ConfirmDeleteButton
          label={t('Delete the template')}
          title={t('Delete the template «{{name}}»?', { name: template.name })}
          message={
            count > 0
              ? t(
                  'Devices using it: {{count}}. They lose their norm, and its rules stop watching them. This cannot be undone.',
                  { count },
                )
              : t('No device uses it. This cannot be undone.')
          }
          onConfirm={async () => {
            await remove.mutateAsync(template.id);
            await navigate(paths.account.deviceEventTemplates.list, { replace: true });
          }}
        />
      </div>
    </Stack>
  );
}
