import type { ComplaintPriority, ComplaintStatus } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Badge colours; the word on the badge carries the meaning, the colour only helps to scan. */
export const STATUS_COLOURS: Record<ComplaintStatus, string> = {
  new: 'blue',
  in_progress: 'orange',
  resolved: 'green',
  closed: 'gray',
};

export const PRIORITY_COLOURS: Record<ComplaintPriority, string> = {
  low: 'gray',
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};

/** The words of statuses, priorities and the status buttons, in the interface language. */
export function useComplaintLabels() {
  const { t } = useTranslation();
  return useMemo(() => {
    const status: Record<ComplaintStatus, string> = {
      new: t('New'),
      in_progress: t('In progress'),
      resolved: t('Resolved'),
      closed: t('Complete'),
    };
    const priority: Record<ComplaintPriority, string> = {
      low: t('Low'),
      normal: t('Normal'),
      high: t('High'),
      urgent: t('Urgent'),
    };
    /** What the button that moves a complaint from `from` to `to` says. */
    const move = (from: ComplaintStatus, to: ComplaintStatus): string => {
      if (to === 'in_progress') return from === 'resolved' ? t('Reopen') : t('Take into work');
      if (to === 'resolved') return t('Mark as resolved');
      if (to === 'closed') return t('Finish the complaint');
      return status[to];
    };
    return { status, priority, move };
  }, [t]);
}
