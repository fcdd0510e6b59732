import { Button, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { toApiFailure } from '../../../lib/api-errors';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useBalance } from '../api/get-balance';
import { ActDialog } from './act-dialog';
import { BalanceSummary } from './balance-summary';
import { DocumentsList } from './documents-list';
import { InvoiceDialog } from './invoice-dialog';
import { PaymentsList } from './payments-list';
import { TopUpDialog } from './top-up-dialog';

/**
 * The balance tab: the balance with its forecast, tariff and how it is topped up; for admins the
 * top-up, invoice and act buttons (others are told who pays); then the documents and the online
 * payments. The top-up and invoice dialogs take the server's limits and payment provider from the
 * balance.
 */
export function BalancePanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { data: balance, error, isPending } = useBalance();
  const [topUpOpened, topUp] = useDisclosure(false);
  const [invoiceOpened, invoice] = useDisclosure(false);
  const [actOpened, act] = useDisclosure(false);

  const actions = user.isAdmin ? (
    <>
      <Button onClick={topUp.open}>{t('Top up')}</Button>
      <Button variant="default" onClick={invoice.open}>
        {t('Issue an invoice')}
      </Button>
      <Button variant="default" onClick={act.open}>
        {t('Act for a month')}
      </Button>
    </>
  ) : (
    <Text size="sm" c="dimmed">
      {t('Only administrators of the organisation top up the balance and issue invoices and acts.')}
    </Text>
  );

  return (
    <Stack gap="xl">
      {isPending ? (
        <PageLoader inline />
      ) : balance ? (
        <BalanceSummary balance={balance} actions={actions} />
      ) : (
        <FormFailure failure={toApiFailure(error)} fields={[]} />
      )}
      <DocumentsList />
      <PaymentsList />
      {user.isAdmin && balance && (
        <>
          <TopUpDialog opened={topUpOpened} onClose={topUp.close} topUp={balance.top_up} />
          <InvoiceDialog opened={invoiceOpened} onClose={invoice.close} limits={balance.top_up} />
          <ActDialog opened={actOpened} onClose={act.close} />
        </>
      )}
    </Stack>
  );
}
