import { Alert, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { toApiFailure } from '../../../lib/api-errors';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { usePaymentOutcome } from '../api/get-payment';
import { useMoney } from '../billing-format';
import classes from '../billing.module.css';

/** `?payment=<id>` as a payment id, or null. */
function paymentId(value: string): number | null {
  const id = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * Back from the payment provider's page (`/account/billing?payment=<id>`): how the payment ended
 * (asked again every 2 s while the provider has not said, a minute at most). Closing the message
 * takes the parameter out of the address.
 */
export function PaymentReturn() {
  const { t } = useTranslation();
  const money = useMoney();
  const [params, setParams] = useSearchParamsState({ payment: '' });
  const id = paymentId(params.payment);
  const { data: payment, error, timedOut } = usePaymentOutcome(id);
  if (id === null) return null;

  const closable = {
    withCloseButton: true,
    closeButtonLabel: t('Close the message'),
    onClose: () => setParams({ payment: '' }, { replace: true }),
  };
  if (error) return <FormFailure failure={toApiFailure(error)} fields={[]} />;
  if (!payment || (payment.status === 'pending' && !timedOut)) {
    return (
      <Alert color="blue" role="status">
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">{t('Waiting for the payment provider to confirm payment № {{id}}…', { id })}</Text>
        </Group>
      </Alert>
    );
  }
  const amount = money.format(payment.amount);
  if (payment.status === 'succeeded') {
    return (
      <Alert
        classNames={{ title: classes.alertTitle }}
        color="green"
        role="status"
        title={t('Payment received')}
        {...closable}
      >
        {t('Payment № {{id}} of {{amount}} went through: the balance is topped up.', { id, amount })}
      </Alert>
    );
  }
  if (payment.status === 'failed') {
    return (
      <Alert
        classNames={{ title: classes.alertTitle }}
        color="red"
        role="alert"
        title={t('The payment did not go through')}
        {...closable}
      >
        {t('Payment № {{id}} of {{amount}} was declined; the balance has not changed.', { id, amount })}
      </Alert>
    );
  }
  return (
    <Alert
      classNames={{ title: classes.alertTitle }}
      color="yellow"
      role="status"
      title={t('The payment is still being processed')}
      {...closable}
    >
      {t(
        'The provider has not confirmed payment № {{id}} of {{amount}} yet. The balance grows as soon as it does; the payment’s status is in the list below.',
        { id, amount },
      )}
    </Alert>
  );
}
