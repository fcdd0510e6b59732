import type { Filters } from '@kontrol/contracts';
import axios from 'axios';
import { apiClient } from '../../../lib/api-client';
import { failureOfAnswer, toApiFailure, type ApiFailure } from '../../../lib/api-errors';

/** A CSV the server refused, or that never came: what to show (docs/contract.md, "Error catalogue"). */
export class CsvDownloadError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.kind === 'connection' ? 'No answer' : failure.message);
    this.name = 'CsvDownloadError';
  }
}

/** The name in a `Content-Disposition` header (UTF-8 `filename*` first), else null. */
function fileNameOf(disposition: unknown): string | null {
  if (typeof disposition !== 'string') return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: the plain name below.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  return (plain?.[1] ?? plain?.[2])?.trim() || null;
}

/** A blob's text (older engines lack `Blob.text()`). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

/**
 * `GET /api/users/balance_log/csv?filters=<json>`: the history with the tab's filters, every
 * matching row, through the API client (session, language of the column names, the 401/419
 * sign-out). Resolves to the file and its name; a refusal is a {@link CsvDownloadError}.
 */
export async function downloadBalanceLogCsv(
  filters: Filters | undefined,
  signal?: AbortSignal,
): Promise<{ name: string; blob: Blob }> {
  try {
    const response = await apiClient.get<Blob>('/users/balance_log/csv', {
      params: filters ? { filters: JSON.stringify(filters) } : {},
      responseType: 'blob',
      headers: { Accept: 'text/csv, application/json' },
      signal,
    });
    return {
      name: fileNameOf(response.headers['content-disposition']) ?? 'balance-history.csv',
      blob: response.data,
    };
  } catch (error) {
    if (axios.isCancel(error)) throw error;
    // A refusal's JSON body arrives as a blob too.
    if (axios.isAxiosError(error) && error.response?.data instanceof Blob) {
      let body: unknown = null;
      try {
        body = JSON.parse(await blobText(error.response.data));
      } catch {
        // Not the API's answer: a connection error.
      }
      throw new CsvDownloadError(failureOfAnswer(error.response.status, body));
    }
    throw new CsvDownloadError(toApiFailure(error));
  }
}

/** Saves a received file under its name: a link to the blob, clicked, then let go. */
export function saveBlob(file: { name: string; blob: Blob }): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
