import type { NotificationSeverity } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, useIntlLocale } from '../../lib/format';

/** Severity colours (theme colours), as the notifications tab marks them. */
export const SEVERITY_COLOURS: Record<NotificationSeverity, string> = {
  info: 'blue',
  warning: 'orange',
  critical: 'red',
};

/** The severities' words in the interface language. */
export function useSeverityLabels(): Record<NotificationSeverity, string> {
  const { t } = useTranslation();
  return useMemo(() => ({ info: t('Information'), warning: t('Warning'), critical: t('Critical') }), [t]);
}

/** A notification's moment in the console's format, in the browser's time zone. */
export function useFormatNotificationTime(): (iso: string) => string {
  const locale = useIntlLocale();
  // A new function when the interface language changes, so the lists memoised on it show it again
  // (formatDateTime reads the language itself).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `locale` is the reason for a new function
  return useMemo(() => (iso: string) => formatDateTime(iso), [locale]);
}
