import { notificationsQueryParams, type NotificationFilters } from './get-notifications';
import { streamDownload, type DownloadProgress, type DownloadedFile } from './stream-download';

/**
 * GET /api/notifications/excel (docs/telemetry.md, "Downloads and notifications"): the filtered
 * notifications as an .xlsx file, streamed, times in `tz`, headers in the interface language.
 */
export function downloadNotificationsExcel(
  filters: NotificationFilters,
  tz: string,
  options: { signal?: AbortSignal; onProgress?: (progress: DownloadProgress) => void },
): Promise<DownloadedFile> {
  return streamDownload(
    '/notifications/excel',
    { ...notificationsQueryParams(filters), tz },
    { ...options, fallbackName: 'notifications.xlsx' },
  );
}
