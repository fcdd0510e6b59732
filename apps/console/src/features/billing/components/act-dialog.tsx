import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { toApiFailure } from '../../../lib/api-errors';
import { useIntlLocale } from '../../../lib/format';
import { useApiForm } from '../../../lib/use-api-form';
import { useCreateAct, type ActResult } from '../api/create-act';
import { useActPeriods } from '../api/get-act-periods';
import { formatDay, formatMonth, useMoney } from '../billing-format';
import classes from '../billing.module.css';

interface ActValues extends Record<string, unknown> {
  period: string;
}

/**
 * «Акт за месяц» (admins): one of the months the server says an act can be made for (ended in
 * Moscow time, with charges), then the act of services for it with its download link; a month's
 * act is made once, and asking again gives the same act. With no such month it says so.
 */
export function ActDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Act for a month')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {opened && <ActPeriods onClose={onClose} />}
    </Modal>
  );
}

/** The months with charges, then the form; or why there is none to choose. */
function ActPeriods({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { data: periods, error } = useActPeriods();
  if (error) return <FormFailure failure={toApiFailure(error)} fields={[]} />;
  if (!periods) return <PageLoader inline />;
  if (periods.length === 0)
    return (
      <Stack gap="md">
        <Alert color="blue" role="status">
          {t('No ended month has charges yet, so there is no act to make.')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('Close')}
          </Button>
        </Group>
      </Stack>
    );
  return <ActForm periods={periods} onClose={onClose} />;
}

function ActForm({ periods, onClose }: { periods: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const create = useCreateAct();
  const [result, setResult] = useState<ActResult | null>(null);
  const locale = useIntlLocale();
  const months = useMemo(
    () => periods.map((period) => ({ value: period, label: formatMonth(period, locale) })),
    [periods, locale],
  );
  const { form, onSubmit, submitting, failure } = useApiForm<ActValues, ActResult>({
    initialValues: { period: months[0]?.value ?? '' },
    validate: (values): Record<string, string[]> => (values.period ? {} : { period: [t('Choose a month.')] }),
    submit: (values) => create.mutateAsync(values.period),
    onSuccess: setResult,
  });

  if (result) {
    const act = result.document;
    const text = t('Act № {{number}} of {{date}} for {{period}}: {{amount}}.', {
      number: act.number,
      date: formatDay(act.date),
      period: act.period ? formatMonth(act.period, locale) : '',
      amount: money.format(act.amount),
    });
    return (
      <Stack gap="md">
        <Alert
          classNames={{ title: classes.alertTitle }}
          color={result.created ? 'green' : 'blue'}
          role="status"
          title={result.created ? t('The act is ready') : t('The act for this month was made earlier')}
        >
          {text}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Close')}
          </Button>
          <Button component="a" href={act.download_url} download data-autofocus>
            {t('Download the act (PDF)')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <FormFailure failure={failure} fields={['period']} />
        <Select
          label={t('Month')}
          name="period"
          required
          allowDeselect={false}
          data={months}
          description={t('Acts are made for ended months that have charges.')}
          data-autofocus
          {...form.getInputProps('period')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('Make the act')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
