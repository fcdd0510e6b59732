import { isoMoment } from '../../../config/paths';
import { streamDownload, type DownloadProgress, type DownloadedFile } from './stream-download';

/** What the CSV holds: the raw samples of these devices over this period, times in `tz`. */
export interface TelemetryCsvRequest {
  devices: readonly number[];
  start: number;
  finish: number;
  tz: string;
}

/**
 * GET /api/telemetry/csv (docs/telemetry.md, "Downloads"): the raw samples of the period, one row
 * each, streamed; the file's name comes from the answer (`telemetry_<first day>_<last day>.csv`).
 */
export function downloadTelemetryCsv(
  request: TelemetryCsvRequest,
  options: { signal?: AbortSignal; onProgress?: (progress: DownloadProgress) => void },
): Promise<DownloadedFile> {
  return streamDownload(
    '/telemetry/csv',
    {
      devices: request.devices.join(','),
      start: isoMoment(request.start),
      finish: isoMoment(request.finish),
      tz: request.tz,
    },
    { ...options, fallbackName: 'telemetry.csv' },
  );
}
