import type { Balance } from '@kontrol/contracts';
import { Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, useMoney } from '../billing-format';
import classes from '../billing.module.css';

/**
 * The balance as the organisation sees it first: the figure (red when the organisation owes), how
 * long it lasts at the current daily charge, the tariff that makes that charge, how the balance is
 * topped up here, and `actions`.
 */
export function BalanceSummary({ balance, actions }: { balance: Balance; actions: ReactNode }) {
  const { t } = useTranslation();
  const money = useMoney();
  const negative = balance.balance < 0;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="billing-balance">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id="billing-balance">
            {t('Current balance')}
          </Title>
          <Text
            component="p"
            className={negative ? `${classes.figure} ${classes.debit}` : classes.figure}
            data-balance={balance.balance}
          >
            {money.format(balance.balance)}
          </Text>
          <Forecast daysLeft={balance.days_left} />
        </Stack>
        <List size="sm" spacing={4} aria-label={t('Tariff')}>
          <List.Item>
            {t('Tariff: {{rate}} per smart device a day', { rate: money.format(balance.daily_rate) })}
          </List.Item>
          <List.Item>{t('Smart devices: {{count}}', { count: balance.smart_devices })}</List.Item>
          <List.Item>
            {t('Charged a day: {{charge}} ({{rate}} × {{count}})', {
              charge: money.format(balance.daily_charge),
              rate: money.format(balance.daily_rate),
              count: balance.smart_devices,
            })}
          </List.Item>
          <List.Item>
            {t('VAT {{percent}} % is included in the prices.', { percent: balance.vat_percent })}
          </List.Item>
          {balance.last_charge_date && (
            <List.Item>{t('Last charge: {{date}}', { date: formatDay(balance.last_charge_date) })}</List.Item>
          )}
        </List>
        <TopUpNote topUp={balance.top_up} />
        <Group gap="sm">{actions}</Group>
      </Stack>
    </Paper>
  );
}

/** How long the balance lasts (`days_left`: null when nothing is charged, 0 when it is spent). */
function Forecast({ daysLeft }: { daysLeft: number | null }) {
  const { t } = useTranslation();
  let text: string;
  if (daysLeft === null) text = t('Nothing is charged now.');
  else if (daysLeft <= 0) text = t('The balance is spent: top it up so the service keeps working.');
  else if (daysLeft === 1) text = t('At this rate the balance lasts about 1 day.');
  else text = t('At this rate the balance lasts about {{count}} days.', { count: daysLeft });
  return <Text fw={500}>{text}</Text>;
}

/** How the balance is topped up: by invoice only without a provider; test money with the sandbox. */
function TopUpNote({ topUp }: { topUp: Balance['top_up'] }) {
  const { t } = useTranslation();
  if (topUp.provider === null) {
    return (
      <Text size="sm" data-top-up="invoice">
        {t('Online payment is not available: the balance is topped up by invoice, paid by bank transfer.')}
      </Text>
    );
  }
  if (!topUp.test_money) return null;
  return (
    <Text size="sm" fw={500} data-top-up="test">
      {t('Online payment is in test mode: no money is taken, and what it credits is marked as test money.')}
    </Text>
  );
}
