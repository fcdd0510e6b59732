import type { Resolution } from '@kontrol/contracts';
import { isoMoment } from '../../../config/paths';
import { streamDownload, type DownloadProgress, type DownloadedFile } from './stream-download';

/**
 * What the CSV holds: these devices over this period, as raw samples or the rollups the screen
 * shows (`auto` picks as the page does); `tz` names the file's days.
 */
export interface TelemetryCsvRequest {
  devices: readonly number[];
  start: number;
  finish: number;
  resolution: Resolution;
  tz: string;
}

/**
 * GET /api/telemetry/csv (docs/telemetry.md, "Downloads"): the period's raw samples or rollups, one
 * row each, in the interface language (the request's `Accept-Language`), streamed; the file's name
 * comes from the answer (`telemetry_<first day>_<last day>.csv`).
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
      resolution: request.resolution,
      tz: request.tz,
    },
    { ...options, fallbackName: 'telemetry.csv' },
  );
}
