import { Stack, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BillingTab } from '../../../config/paths';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { BalancePanel } from '../components/balance-panel';
import { HistoryPanel } from '../components/history-panel';
import { OrganisationPanel } from '../components/organisation-panel';
import { PaymentReturn } from '../components/payment-return';

const TABS = ['balance', 'history', 'organisation'] as const satisfies readonly BillingTab[];

/**
 * `/account/billing` (docs/contract.md, "Screens and routes": tabs for balance, history and organisation; docs/billing.md). The
 * tab is in the query string (`?tab=history`), and so are the history's filters and page, so a
 * link or a reload shows the same view. Back from the payment provider (`?payment=<id>`), how the
 * payment ended shows above the tabs.
 */
export function BillingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParamsState({ tab: 'balance' });
  const tab: BillingTab = (TABS as readonly string[]).includes(params.tab)
    ? (params.tab as BillingTab)
    : 'balance';
  return (
    <Stack gap="md">
      <PaymentReturn />
      <Tabs
        value={tab}
        onChange={(next) => next && next !== tab && setParams({ tab: next })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="balance">{t('Balance')}</Tabs.Tab>
          <Tabs.Tab value="history">{t('History')}</Tabs.Tab>
          <Tabs.Tab value="organisation">{t('Organisation')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="balance">
          <BalancePanel />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <HistoryPanel />
        </Tabs.Panel>
        <Tabs.Panel value="organisation">
          <OrganisationPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
