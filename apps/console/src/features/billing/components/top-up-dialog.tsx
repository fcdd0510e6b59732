import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { browserWindow, useCreatePayment } from '../api/create-payment';
import { roublesToKopecks } from '../billing-format';
import { AmountField, useAmountCheck, type RoublesValue } from './amount-field';

interface AmountValues extends Record<string, unknown> {
  amount: RoublesValue;
}

/**
 * «Пополнить» (admins): the amount in roubles, then the browser goes to the payment provider's
 * page (`confirmation_url`); the provider sends it back to `/account/billing?payment=<id>`.
 */
export function TopUpDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Top up the balance')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {/* A fresh form each time the dialog opens. */}
      {opened && <TopUpForm onCancel={onClose} />}
    </Modal>
  );
}

function TopUpForm({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation();
  const create = useCreatePayment();
  const check = useAmountCheck();
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
        <FormFailure failure={failure} fields={['amount']} />
        {noPage && <FormFailure failure={{ kind: 'connection' }} fields={[]} />}
        <AmountField
          data-autofocus
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
