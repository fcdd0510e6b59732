import { PAYMENT_MAX_KOPECKS, PAYMENT_MIN_KOPECKS } from '@kontrol/contracts';
import { Button, Group, NumberInput, Stack, type NumberInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { getLocale } from '../../../lib/i18n';
import { isPaymentAmount, roublesToKopecks, useMoney } from '../billing-format';

/** Amounts offered with one press, in roubles. */
export const QUICK_AMOUNTS = [1_000, 5_000, 10_000, 50_000] as const;

/** The value of an amount field: roubles as Mantine's number input gives them ('' when empty). */
export type RoublesValue = number | string;

/**
 * The amount of a payment or an invoice: roubles with at most two decimals, written as the
 * interface language writes numbers, from 100 ₽ to 10 000 000 ₽; the buttons below fill in
 * common amounts. Spread `form.getInputProps('amount')` into it.
 */
export function AmountField({
  onQuickAmount,
  ...props
}: NumberInputProps & { onQuickAmount: (roubles: number) => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const russian = getLocale() === 'ru';
  return (
    <Stack gap="xs">
      <NumberInput
        label={t('Amount, ₽')}
        name="amount"
        required
        min={PAYMENT_MIN_KOPECKS / 100}
        max={PAYMENT_MAX_KOPECKS / 100}
        decimalScale={2}
        allowNegative={false}
        // A number out of range stays as typed, and the check says why (no silent change on blur).
        clampBehavior="none"
        thousandSeparator={russian ? ' ' : ','}
        decimalSeparator={russian ? ',' : '.'}
        inputMode="decimal"
        hideControls
        description={t('From {{min}} to {{max}}.', {
          min: money.short(PAYMENT_MIN_KOPECKS),
          max: money.short(PAYMENT_MAX_KOPECKS),
        })}
        {...props}
      />
      <Group gap="xs" role="group" aria-label={t('Common amounts')}>
        {QUICK_AMOUNTS.map((roubles) => (
          <Button key={roubles} variant="default" size="compact-sm" onClick={() => onQuickAmount(roubles)}>
            {money.short(roubles * 100)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** The client check of an amount field: field → messages, as a 422 would answer. */
export function useAmountCheck() {
  const { t } = useTranslation();
  const money = useMoney();
  return (roubles: RoublesValue): Record<string, string[]> => {
    const kopecks = roublesToKopecks(roubles);
    if (kopecks === null) return { amount: [t('Enter the amount.')] };
    if (!isPaymentAmount(kopecks)) {
      return {
        amount: [
          t('Enter an amount from {{min}} to {{max}}.', {
            min: money.short(PAYMENT_MIN_KOPECKS),
            max: money.short(PAYMENT_MAX_KOPECKS),
          }),
        ],
      };
    }
    return {};
  };
}
