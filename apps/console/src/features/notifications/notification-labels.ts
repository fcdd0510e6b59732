import type { NotificationSeverity } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../lib/format';

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

/** A notification's moment, short, in the interface language and the browser's time zone. */
export function useFormatNotificationTime(): (iso: string) => string {
  // A new formatter when the interface language changes.
  const language = useTranslation().i18n.language;
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' });
    return (iso: string) => format.format(new Date(iso));
  }, [language]);
}
