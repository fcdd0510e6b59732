import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** A file the server sent, to be saved. */
export interface ProgramFiles {
  name: string;
  blob: Blob;
}

/** The name in a `Content-Disposition` header: the UTF-8 `filename*` if any, else `filename`. */
export function dispositionName(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
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

/**
 * POST /api/recipes_sets/get_program_files (docs/contract.md, "Entities" `bind_ids`): one program file, or a zip of
 * several. An error answer comes as a blob too; it is read back into the API's JSON so that the
 * failure shows as every other (docs/contract.md, "Error catalogue").
 */
export async function getProgramFiles(bindIds: readonly number[]): Promise<ProgramFiles> {
  try {
    const response = await apiClient.post<Blob>(
      '/recipes_sets/get_program_files',
      { bind_ids: bindIds },
      { responseType: 'blob' },
    );
    const type = String(response.headers['content-type'] ?? '');
    const fallback = type.includes('zip') ? 'programs.zip' : 'program.kpf';
    const name = dispositionName(response.headers['content-disposition'] as string | undefined);
    return { name: name ?? fallback, blob: response.data };
  } catch (error) {
    const data: unknown = (error as { response?: { data?: unknown } }).response?.data;
    if (data instanceof Blob) {
      try {
        (error as { response: { data: unknown } }).response.data = JSON.parse(await data.text());
      } catch {
        // Not the API's JSON: it stays a connection-like failure.
      }
    }
    throw error;
  }
}

/** Hands a received file to the browser's downloads. */
export function saveProgramFiles(file: ProgramFiles): void {
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

/** Downloads the program files of the given binds and saves them. */
export function useProgramFiles() {
  return useMutation({
    mutationFn: async (bindIds: readonly number[]) => saveProgramFiles(await getProgramFiles(bindIds)),
  });
}
