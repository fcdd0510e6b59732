import {
  BILLING_TIME_ZONE,
  CURRENCY,
  type DocumentKind,
  type LedgerKind,
  type PaymentStatus,
} from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDate, useIntlLocale } from '../../lib/format';

/**
 * Money and dates of the billing page (docs/billing.md): amounts are integer kopecks everywhere
 * and are shown in roubles in the interface language (`12 345,67 ₽`, `₽12,345.67`); people type
 * roubles with at most two decimals.
 */

/**
 * `kopecks` in roubles, e.g. `12 345,67 ₽`; `signed` adds + to credits (`+1 500,00 ₽`); `short`
 * leaves out zero kopecks (`1 000 ₽`, for limits and suggested amounts).
 */
export function formatKopecks(
  kopecks: number,
  locale: string,
  { signed = false, short = false }: { signed?: boolean; short?: boolean } = {},
): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: CURRENCY,
    currencyDisplay: 'narrowSymbol',
    signDisplay: signed ? 'exceptZero' : 'auto',
    minimumFractionDigits: short && kopecks % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(kopecks / 100);
}

/** Money formatters in the interface language, rebuilt when it changes. */
export function useMoney() {
  const locale = useIntlLocale();
  return useMemo(() => {
    return {
      format: (kopecks: number) => formatKopecks(kopecks, locale),
      signed: (kopecks: number) => formatKopecks(kopecks, locale, { signed: true }),
      short: (kopecks: number) => formatKopecks(kopecks, locale, { short: true }),
    };
  }, [locale]);
}

/** Roubles as typed (a number, or '' for an empty field) in whole kopecks; null when empty. */
export function roublesToKopecks(roubles: number | string): number | null {
  if (roubles === '' || roubles === null) return null;
  const value = typeof roubles === 'number' ? roubles : Number(String(roubles).replace(',', '.'));
  return Number.isFinite(value) ? Math.round(value * 100) : null;
}

/** The billing month (`YYYY-MM`, Moscow) `now` falls in. */
export function billingMonth(now: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: BILLING_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}

/** A `YYYY-MM` month in words: «октябрь 2026 г.», "October 2026". */
export function formatMonth(period: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${period}-01T00:00:00Z`),
  );
}

/** A calendar day (`YYYY-MM-DD…`: documents, billing days) in the console's one date format. */
export function formatDay(day: string): string {
  return formatCalendarDate(day.slice(0, 10));
}

/** The words of the billing page's kinds and statuses, in the interface language. */
export function useBillingLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      ledgerKind: {
        payment: t('Payment'),
        charge: t('Charge'),
        correction: t('Correction'),
        refund: t('Refund'),
      } satisfies Record<LedgerKind, string>,
      documentKind: { invoice: t('Invoice'), act: t('Act') } satisfies Record<DocumentKind, string>,
      documentStatus: { issued: t('Issued'), paid: t('Paid') },
      paymentStatus: {
        pending: t('Awaiting payment'),
        succeeded: t('Paid'),
        failed: t('Declined'),
      } satisfies Record<PaymentStatus, string>,
    }),
    [t],
  );
}

/** Status colours: the badge's word carries the meaning, the colour only helps. */
export const PAYMENT_STATUS_COLOURS: Record<PaymentStatus, string> = {
  pending: 'yellow',
  succeeded: 'green',
  failed: 'red',
};
export const DOCUMENT_STATUS_COLOURS = { issued: 'blue', paid: 'green' } as const;
