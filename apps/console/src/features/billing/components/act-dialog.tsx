import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { intlLocale } from '../../../lib/format';
import { useApiForm } from '../../../lib/use-api-form';
import { useCreateAct, type ActResult } from '../api/create-act';
import { endedMonths, formatDay, formatMonth, useMoney } from '../billing-format';
import classes from '../billing.module.css';

/** How far back the month list goes. */
export const ACT_MONTHS = 24;

interface ActValues extends Record<string, unknown> {
  period: string;
}

/**
 * «Акт за месяц» (admins): a month that has ended (Moscow time, as the server counts), then the
 * act of services for it with its download link; a month's act is made once, and asking again
 * gives the same act.
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
      {opened && <ActForm onClose={onClose} />}
    </Modal>
  );
}

function ActForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const create = useCreateAct();
  const [result, setResult] = useState<ActResult | null>(null);
  const months = useMemo(() => {
    const locale = intlLocale();
    return endedMonths(Date.now(), ACT_MONTHS).map((period) => ({
      value: period,
      label: formatMonth(period, locale),
    }));
    // Rebuilt when the language changes (`t` changes with it).
  }, [t]);
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
      date: formatDay(act.date, intlLocale()),
      period: act.period ? formatMonth(act.period, intlLocale()) : '',
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
          description={t('Acts are made for months that have ended.')}
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
