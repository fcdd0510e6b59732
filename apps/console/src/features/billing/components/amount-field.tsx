import { issuesToFieldErrors, topUpBodySchema, type TopUpLimits } from '@kontrol/contracts';
import { Button, Group, NumberInput, Stack, type NumberInputProps } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { getLocale } from '../../../lib/i18n';
import { roublesToKopecks, useMoney } from '../billing-format';

/** Amounts offered with one press, in roubles. */
export const QUICK_AMOUNTS = [1_000, 5_000, 10_000, 50_000] as const;

/** The value of an amount field: roubles as Mantine's number input gives them ('' when empty). */
export type RoublesValue = number | string;

/**
 * The amount of a payment or an invoice: roubles with at most two decimals, written as the
 * interface language writes numbers, within the server's `limits` (the balance answer's
 * `top_up`); the buttons below fill in the common amounts within them. Spread
 * `form.getInputProps('amount')` into it.
 */
export function AmountField({
  limits,
  onQuickAmount,
  ...props
}: NumberInputProps & { limits: TopUpLimits; onQuickAmount: (roubles: number) => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const russian = getLocale() === 'ru';
  const quick = QUICK_AMOUNTS.filter(
    (roubles) => roubles * 100 >= limits.min_amount && roubles * 100 <= limits.max_amount,
  );
  return (
    <Stack gap="xs">
      <NumberInput
        label={t('Amount, ₽')}
        name="amount"
        required
        min={limits.min_amount / 100}
        max={limits.max_amount / 100}
        decimalScale={2}
        allowNegative={false}
        // A number out of range stays as typed, and the check says why (no silent change on blur).
        clampBehavior="none"
        thousandSeparator={russian ? ' ' : ','}
        decimalSeparator={russian ? ',' : '.'}
        inputMode="decimal"
        hideControls
        description={t('From {{min}} to {{max}}.', {
          min: money.short(limits.min_amount),
          max: money.short(limits.max_amount),
        })}
        {...props}
      />
      {quick.length > 0 && (
        <Group gap="xs" role="group" aria-label={t('Common amounts')}>
          {quick.map((roubles) => (
            <Button key={roubles} variant="default" size="compact-sm" onClick={() => onQuickAmount(roubles)}>
              {money.short(roubles * 100)}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/**
 * The client check of an amount field: field → messages, as a 422 would answer. The range is the
 * server's own schema under the server's limits, so both say the same.
 */
export function useAmountCheck(limits: TopUpLimits) {
  const { t } = useTranslation();
  const schema = useMemo(() => topUpBodySchema(limits), [limits]);
  return (roubles: RoublesValue): Record<string, string[]> => {
    const kopecks = roublesToKopecks(roubles);
    if (kopecks === null) return { amount: [t('Enter the amount.')] };
    const parsed = schema.safeParse({ amount: kopecks });
    return parsed.success ? {} : issuesToFieldErrors(parsed.error.issues, getLocale());
  };
}
