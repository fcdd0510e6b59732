import type { Filters } from '@kontrol/contracts';
import { Button, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import type { ApiFailure } from '../../../lib/api-errors';
import { CsvDownloadError, downloadBalanceLogCsv, saveBlob } from '../api/download-balance-log-csv';

/** «Экспорт CSV»: the history with the tab's filters as a CSV file. */
export function ExportCsvButton({ filters }: { filters: Filters | undefined }) {
  const { t } = useTranslation();
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Leaving the page ends a download under way.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setRunning(true);
    setFailure(null);
    try {
      saveBlob(await downloadBalanceLogCsv(filters, abort.signal));
    } catch (error) {
      if (abort.signal.aborted) return;
      setFailure(error instanceof CsvDownloadError ? error.failure : { kind: 'connection' });
    } finally {
      if (controller.current === abort) {
        controller.current = null;
        setRunning(false);
      }
    }
  };

  return (
    <Stack gap={6} align="flex-end">
      <Button variant="default" onClick={() => void start()} loading={running}>
        {t('Export CSV')}
      </Button>
      <FormFailure failure={failure} fields={[]} />
    </Stack>
  );
}
