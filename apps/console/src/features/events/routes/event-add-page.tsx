import type { Device } from '@kontrol/contracts';
import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useCreateDeviceEvent } from '../api/create-device-event';
import { ManualEventForm } from '../components/manual-event-form';

/** `/account/device_event_templates/events/add` (`?device=` preselects one): a manual event; then its page opens. */
export function EventAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const devices = useReferenceList<Device>(user, 'devices');
  const create = useCreateDeviceEvent();
  const device = Number(searchParams.get('device'));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.deviceEventTemplates.events()} size="sm">
        ← {t('All events')}
      </Anchor>
      <ManualEventForm
        devices={devices}
        deviceId={Number.isInteger(device) && device > 0 ? device : null}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(event) =>
          void navigate(paths.account.deviceEventTemplates.event(event.id), { replace: true })
        }
      />
    </Stack>
  );
}
