import { Alert, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { toApiFailure } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useOrganisation } from '../api/get-organisation';
import { useUpdateOrganisation } from '../api/update-organisation';
import { OrganisationForm } from './organisation-form';

/**
 * The organisation tab: the requisites invoices and acts are made out to. Admins fill and save
 * them; everyone else reads them.
 */
export function OrganisationPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { data: details, error, isPending } = useOrganisation();
  const update = useUpdateOrganisation();
  const [saved, setSaved] = useState(false);

  if (isPending) return <PageLoader inline />;
  if (error || details === undefined) return <FormFailure failure={toApiFailure(error)} fields={[]} />;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={880}>
        {t(
          'Invoices and acts are made out to these details. Check them against the organisation’s documents.',
        )}
      </Text>
      {!user.isAdmin && (
        <Alert color="gray" role="note">
          {details
            ? t('Only administrators of the organisation change its details.')
            : t(
                'The organisation’s details are not filled in yet. Only administrators of the organisation can fill them in.',
              )}
        </Alert>
      )}
      {details?.updated_at && (
        <Text size="sm" c="dimmed">
          {t('Last changed {{time}}.', { time: formatDateTime(details.updated_at) })}
        </Text>
      )}
      {(user.isAdmin || details) && (
        <OrganisationForm
          details={details}
          readOnly={!user.isAdmin}
          submit={(body) => {
            setSaved(false);
            return update.mutateAsync(body);
          }}
          onSuccess={() => setSaved(true)}
        />
      )}
      {saved && (
        <Alert maw={880} color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
    </Stack>
  );
}
