import { Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import type { ApiFailure } from '../../../lib/api-errors';
import { intlLocale } from '../../../lib/format';
import { DownloadError, saveFile, type DownloadProgress, type DownloadedFile } from '../api/stream-download';

type DownloadState =
  | { status: 'idle' }
  | { status: 'running'; progress: DownloadProgress }
  | { status: 'saved'; name: string }
  | { status: 'cancelled' }
  | { status: 'failed'; failure: ApiFailure };

/** How often the progress on screen follows the bytes coming in. */
const PROGRESS_EVERY_MS = 150;

/** Bytes in the interface language: "850 KB", "12.4 MB". */
function formatSize(bytes: number): string {
  const megabytes = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(intlLocale(), {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: 1,
  }).format(megabytes ? bytes / (1024 * 1024) : bytes / 1024);
}

/**
 * A download of a file the server streams (CSV, Excel): while it comes, how much has arrived (bytes,
 * and rows for a text file with a header line), a progress bar when the size is known, and a button
 * to cancel it; then the file is saved under the server's name. A refusal or a lost connection
 * shows as every failed call does (docs/contract.md, "Error catalogue").
 */
export function DownloadButton({
  label,
  download,
  countRows = false,
  disabled = false,
}: {
  /** The button's text, e.g. "Download CSV". */
  label: string;
  /** Starts the download; must stop when the signal aborts. */
  download: (options: {
    signal: AbortSignal;
    onProgress: (progress: DownloadProgress) => void;
  }) => Promise<DownloadedFile>;
  /** A text file with one header line: show the rows received. */
  countRows?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<DownloadState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page ends a download under way.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    // The screen follows at most every PROGRESS_EVERY_MS, and always shows the latest figures.
    let latest: DownloadProgress = { bytes: 0, total: null, lines: 0 };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      timer = undefined;
      if (!abort.signal.aborted) setState({ status: 'running', progress: latest });
    };
    setState({ status: 'running', progress: latest });
    try {
      const file = await download({
        signal: abort.signal,
        onProgress: (progress) => {
          latest = progress;
          timer ??= setTimeout(show, PROGRESS_EVERY_MS);
        },
      });
      clearTimeout(timer);
      if (abort.signal.aborted) return;
      saveFile(file);
      setState({ status: 'saved', name: file.name });
    } catch (error) {
      clearTimeout(timer);
      if (abort.signal.aborted) return;
      if (error instanceof DownloadError) setState({ status: 'failed', failure: error.failure });
      else {
        console.error(error);
        setState({ status: 'failed', failure: { kind: 'connection' } });
      }
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const cancel = () => {
    controller.current?.abort();
    controller.current = null;
    setState({ status: 'cancelled' });
  };

  const running = state.status === 'running';
  return (
    <Stack gap={6} align="flex-start">
      <Button variant="default" onClick={() => void start()} disabled={disabled || running}>
        {label}
      </Button>
      {state.status === 'running' && (
        <Group gap="xs" wrap="nowrap" role="group" aria-label={t('Download progress')}>
          {state.progress.total ? (
            <Progress.Root w={140} size="lg">
              <Progress.Section
                value={Math.min(100, (state.progress.bytes / state.progress.total) * 100)}
                aria-label={t('Download progress')}
                animated
                striped
              />
            </Progress.Root>
          ) : (
            <Loader size="xs" aria-hidden="true" />
          )}
          <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {t('Received {{size}}', { size: formatSize(state.progress.bytes) })}
            {countRows &&
              ` · ${t('Rows: {{count}}', {
                count: Math.max(0, state.progress.lines - 1).toLocaleString(intlLocale()),
              })}`}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={cancel}>
            {t('Cancel')}
          </Button>
        </Group>
      )}
      {state.status === 'saved' && (
        <Text size="sm" role="status">
          {t('Saved as {{name}}', { name: state.name })}
        </Text>
      )}
      {state.status === 'cancelled' && (
        <Text size="sm" role="status">
          {t('The download was cancelled')}
        </Text>
      )}
      {state.status === 'failed' && <FormFailure failure={state.failure} fields={[]} />}
    </Stack>
  );
}
