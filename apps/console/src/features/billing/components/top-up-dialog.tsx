import type { Balance, TopUpLimits } from '@kontrol/contracts';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { browserWindow, useCreatePayment } from '../api/create-payment';
import { roublesToKopecks } from '../billing-format';
import classes from '../billing.module.css';
import { AmountField, useAmountCheck, type RoublesValue } from './amount-field';
import { InvoiceForm } from './invoice-dialog';

interface AmountValues extends Record<string, unknown> {
  amount: RoublesValue;
}

/**
 * «Пополнить» (admins). With an online payment provider: the amount in roubles, then the browser
 * goes to the provider's page (`confirmation_url`), which sends it back to
 * `/account/billing?payment=<id>`; the sandbox is said to be test money first. Without one
 * (`top_up.provider` null): the dialog says online payment is not available and offers the
 * invoice, paid by bank transfer.
 */
export function TopUpDialog({
  opened,
  onClose,
  topUp,
}: {
  opened: boolean;
  onClose: () => void;
  topUp: Balance['top_up'];
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Top up the balance')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {/* A fresh form each time the dialog opens. */}
      {opened &&
        (topUp.provider === null ? (
          <Stack gap="md">
            <Alert
              classNames={{ title: classes.alertTitle }}
              color="blue"
              title={t('Online payment is not available')}
            >
              {t(
                'Top up by invoice: issue it here and pay it by bank transfer; the balance grows when the payment arrives.',
              )}
            </Alert>
            <InvoiceForm onClose={onClose} limits={topUp} />
          </Stack>
        ) : (
          <TopUpForm onCancel={onClose} limits={topUp} testMoney={topUp.test_money} />
        ))}
    </Modal>
  );
}

function TopUpForm({
  onCancel,
  limits,
  testMoney,
}: {
  onCancel: () => void;
  limits: TopUpLimits;
  testMoney: boolean;
}) {
  const { t } = useTranslation();
  const create = useCreatePayment();
  const check = useAmountCheck(limits);
  const [leaving, setLeaving] = useState(false);
  const [noPage, setNoPage] = useState(false);
  const { form, onSubmit, submitting, failure } = useApiForm<AmountValues, string | null>({
    initialValues: { amount: '' },
    validate: (values) => check(values.amount),
    submit: async (values) =>
      (await create.mutateAsync(roublesToKopecks(values.amount) ?? 0)).confirmation_url,
    onSuccess: (url) => {
      if (!url) {
        setNoPage(true);
        return;
      }
      setLeaving(true);
      browserWindow.assign(url);
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {testMoney && (
          <Alert classNames={{ title: classes.alertTitle }} color="yellow" title={t('Test mode')}>
            {t(
              'The payment provider is the Kontrol sandbox: no money is taken, and the credit is marked as test money.',
            )}
          </Alert>
        )}
        <FormFailure failure={failure} fields={['amount']} />
        {noPage && <FormFailure failure={{ kind: 'connection' }} fields={[]} />}
        <AmountField
          data-autofocus
          limits={limits}
          {...form.getInputProps('amount')}
          onQuickAmount={(roubles) => form.setFieldValue('amount', roubles)}
        />
        <Text size="sm" c="dimmed">
          {t('You will pay on the payment provider’s page and come back here.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={submitting || leaving}>
            {t('Go to payment')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
