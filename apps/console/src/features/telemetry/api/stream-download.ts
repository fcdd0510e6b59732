import { API_BASE_PATH, LOGOUT_STATUSES } from '@kontrol/contracts';
import { reportSessionEnded } from '../../../lib/api-client';
import { failureOfAnswer, type ApiFailure } from '../../../lib/api-errors';
import { getLocale } from '../../../lib/i18n';

/** How far a download has come. */
export interface DownloadProgress {
  /** Bytes received so far. */
  bytes: number;
  /** The file's size when the server said it (an uncompressed answer), else null. */
  total: number | null;
  /** Line ends received so far (text files: rows). */
  lines: number;
}

/** A file received whole, to be saved. */
export interface DownloadedFile {
  name: string;
  blob: Blob;
}

/** A download the server refused or that never got an answer: what to show (docs/contract.md, "Error catalogue"). */
export class DownloadError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.kind === 'connection' ? 'No answer' : failure.message);
    this.name = 'DownloadError';
  }
}

/**
 * The file name of a `Content-Disposition` header: the UTF-8 `filename*` when there is one (names
 * with Cyrillic letters), else `filename`, else null.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? name : null;
}

const NEWLINE = 0x0a;

/**
 * GET `/api{path}` as a stream, with the session's cookies (docs/contract.md, "HTTP calls"), reporting progress as bytes
 * arrive; resolves to the whole file. Downloads go through `fetch` rather than the API client so
 * that the body can be read while it comes (a CSV of a year of samples is hundreds of megabytes
 * written row by row). A 401/419 signs the user out as every other call does; any other refusal or
 * a lost connection is a {@link DownloadError}; an abort rejects with the signal's `AbortError`.
 */
export async function streamDownload(
  path: string,
  params: Record<string, string>,
  options: { signal?: AbortSignal; onProgress?: (progress: DownloadProgress) => void; fallbackName: string },
): Promise<DownloadedFile> {
  const url = new URL(`${API_BASE_PATH}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);

  let response: Response;
  try {
    response = await fetch(url, {
      credentials: 'include',
      signal: options.signal,
      headers: { 'Accept-Language': getLocale() },
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    console.error(`No server answered ${url.pathname}`, error);
    throw new DownloadError({ kind: 'connection' });
  }

  if (!response.ok) {
    if ((LOGOUT_STATUSES as readonly number[]).includes(response.status)) reportSessionEnded();
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // Not the API's answer (a proxy page): a connection error below.
    }
    throw new DownloadError(failureOfAnswer(response.status, body));
  }

  const length = Number(response.headers.get('content-length'));
  // A compressed answer's length is not the size of what the reader gives.
  const total =
    Number.isFinite(length) && length > 0 && !response.headers.get('content-encoding') ? length : null;
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const name = fileNameOf(response.headers.get('content-disposition')) ?? options.fallbackName;
  const progress: DownloadProgress = { bytes: 0, total, lines: 0 };
  options.onProgress?.({ ...progress });

  const chunks: Uint8Array<ArrayBuffer>[] = [];
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        progress.bytes += value.byteLength;
        for (let i = 0; i < value.length; i += 1) if (value[i] === NEWLINE) progress.lines += 1;
        options.onProgress?.({ ...progress });
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      console.error(`The download of ${url.pathname} broke off`, error);
      throw new DownloadError({ kind: 'connection' });
    } finally {
      reader.releaseLock();
    }
  } else {
    const buffer = new Uint8Array(await response.arrayBuffer());
    chunks.push(buffer);
    progress.bytes = buffer.byteLength;
    options.onProgress?.({ ...progress });
  }
  return { name, blob: new Blob(chunks, { type }) };
}

/** Saves a received file under its name: a link to the blob, clicked, then let go. */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started saving by now; the blob may go a little later.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
