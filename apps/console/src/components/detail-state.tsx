import { Alert, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { statusOf, toApiFailure } from '../lib/api-errors';
import { FormFailure } from './form-failure';
import { PageLoader } from './page-loader';

/**
 * What a record's page shows until the record is there: "not found" for an id that cannot be one
 * (`invalidId`) or a 404, a loader while it loads, otherwise the failure as the API gave it; each
 * with the page's way back. The page renders it while it has no record:
 * `if (id === null || !device) return <DetailState … />`.
 */
export function DetailState({
  invalidId,
  query: { isPending, error },
  notFound,
  back,
}: {
  invalidId: boolean;
  query: { isPending: boolean; error: unknown };
  /** The not-found heading, e.g. "Device not found". */
  notFound: string;
  /** The link back to the list. */
  back: ReactNode;
}) {
  const { t } = useTranslation();
  if (invalidId || statusOf(error) === 404) {
    return (
      <Stack gap="md">
        <Alert color="gray" title={notFound}>
          {t('It may have been deleted, or the link may be mistyped.')}
        </Alert>
        {back}
      </Stack>
    );
  }
  if (isPending) return <PageLoader inline />;
  return (
    <Stack gap="md">
      <FormFailure failure={toApiFailure(error)} fields={[]} />
      {back}
    </Stack>
  );
}
