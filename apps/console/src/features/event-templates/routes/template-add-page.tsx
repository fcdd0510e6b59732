import type { Device, DeviceEventTemplate, DeviceType } from '@kontrol/contracts';
import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useCreateTemplate } from '../api/create-template';
import { TemplateForm } from '../components/template-form';

/** `/account/device_event_templates/add` (`?type=` preselects a device type); then the template's page opens. */
export function TemplateAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const types = useReferenceList<DeviceType>(user, 'deviceTypes');
  const devices = useReferenceList<Device>(user, 'devices');
  const templates = useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates');
  const create = useCreateTemplate();
  const presetType = Number(searchParams.get('type'));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.deviceEventTemplates.list} size="sm">
        ← {t('All templates')}
      </Anchor>
      <TemplateForm
        preset={{
          deviceTypeId: types.some((type) => type.id === presetType) ? presetType : undefined,
        }}
        types={types}
        devices={devices}
        templates={templates}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(template) =>
          void navigate(paths.account.deviceEventTemplates.detail(template.id), { replace: true })
        }
        submitLabel={t('Add template')}
      />
    </Stack>
  );
}
