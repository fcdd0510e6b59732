import type { NotificationSeverity } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';

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
  // A new function when the interface language changes, so the list shows it again.
  const language = useTranslation().i18n.language;
  return useMemo(() => (iso: string) => formatDateTime(iso), [language]);
}
