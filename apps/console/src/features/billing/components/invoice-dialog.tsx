import type { BillingDocument, TopUpLimits } from '@kontrol/contracts';
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { useApiForm } from '../../../lib/use-api-form';
import { useCreateInvoice } from '../api/create-invoice';
import { formatDay, roublesToKopecks, useMoney } from '../billing-format';
import classes from '../billing.module.css';
import { AmountField, useAmountCheck, type RoublesValue } from './amount-field';

interface AmountValues extends Record<string, unknown> {
  amount: RoublesValue;
}

/**
 * «Выставить счёт» (admins): the amount in roubles, then the numbered invoice with its download
 * link. Without the organisation's requisites the server refuses (422 `organization`): the dialog
 * says so and leads to the organisation tab.
 */
export function InvoiceDialog({
  opened,
  onClose,
  limits,
}: {
  opened: boolean;
  onClose: () => void;
  limits: TopUpLimits;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Issue an invoice')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {opened && <InvoiceForm onClose={onClose} limits={limits} />}
    </Modal>
  );
}

/** The invoice's amount, then the invoice with its download; also the top-up without online payment. */
export function InvoiceForm({ onClose, limits }: { onClose: () => void; limits: TopUpLimits }) {
  const { t } = useTranslation();
  const money = useMoney();
  const create = useCreateInvoice();
  const check = useAmountCheck(limits);
  const [invoice, setInvoice] = useState<BillingDocument | null>(null);
  const { form, onSubmit, submitting, failure } = useApiForm<AmountValues, BillingDocument>({
    initialValues: { amount: '' },
    validate: (values) => check(values.amount),
    submit: (values) => create.mutateAsync(roublesToKopecks(values.amount) ?? 0),
    onSuccess: setInvoice,
  });

  if (invoice) {
    return (
      <Stack gap="md">
        <Alert
          classNames={{ title: classes.alertTitle }}
          color="green"
          role="status"
          title={t('The invoice is issued')}
        >
          {t('Invoice № {{number}} of {{date}} for {{amount}}, VAT {{vat}} included.', {
            number: invoice.number,
            date: formatDay(invoice.date),
            amount: money.format(invoice.amount),
            vat: money.format(invoice.vat),
          })}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Close')}
          </Button>
          <Button component="a" href={invoice.download_url} download data-autofocus>
            {t('Download the invoice (PDF)')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const organisation = failure?.kind === 'validation' ? failure.errors.organization : undefined;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {organisation ? (
          <Alert
            classNames={{ title: classes.alertTitle }}
            color="red"
            role="alert"
            title={t('Please fix the following errors')}
          >
            <Stack gap="xs">
              <Text size="sm">{organisation.join(' ')}</Text>
              <Anchor component={Link} to={paths.account.billing('organisation')} onClick={onClose} size="sm">
                {t('Fill in the organisation’s details')}
              </Anchor>
            </Stack>
          </Alert>
        ) : (
          <FormFailure failure={failure} fields={['amount']} />
        )}
        <AmountField
          data-autofocus
          limits={limits}
          {...form.getInputProps('amount')}
          onQuickAmount={(roubles) => form.setFieldValue('amount', roubles)}
        />
        <Text size="sm" c="dimmed">
          {t('The invoice is paid by bank transfer; the balance grows when the payment arrives.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('Issue the invoice')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
