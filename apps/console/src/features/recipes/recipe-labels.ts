import type { RecipeBind, StepMode, UploadError, UploadState } from '@kontrol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The words of recipes and their delivery in the interface language: cooking modes, upload
 * states and failures, and spans of time. The device page's recipes view reads them too.
 */
export function useRecipeLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      mode: {
        steam: t('Steam'),
        convection: t('Convection'),
        combination: t('Combination'),
        fry: t('Fry'),
        chill: t('Chill'),
        freeze: t('Freeze'),
      } satisfies Record<StepMode, string>,
      state: {
        queued: t('Queued'),
        sending: t('Sending'),
        installed: t('Installed'),
        failed: t('Failed'),
        removing: t('Removing'),
      } satisfies Record<UploadState, string>,
      error: {
        crc_mismatch: t('CRC mismatch: the device stored a different file. Retry to send it again.'),
        timeout: t('Timeout: the device did not report back in time.'),
        download_failed: t('The device could not download the file.'),
        capacity: t('The device’s program memory is full.'),
      } satisfies Record<UploadError, string>,
      /** Why a bind waits: the device has not taken it yet (it may be offline). */
      queuedHint: t('Waiting for the device: it gets the file when it is online.'),
    }),
    [t],
  );
}

export type RecipeLabels = ReturnType<typeof useRecipeLabels>;

/** A bind's state in words, with its failure or why it waits. */
export function bindStateWords(bind: Pick<RecipeBind, 'state' | 'error'>, labels: RecipeLabels): string {
  if (bind.state === 'failed' && bind.error) return `${labels.state.failed}: ${labels.error[bind.error]}`;
  if (bind.state === 'queued') return `${labels.state.queued}: ${labels.queuedHint}`;
  return labels.state[bind.state];
}

/** Mantine colours of the states: grey waiting, blue moving, green done, red failed. */
export const STATE_COLOURS: Record<UploadState, string> = {
  queued: 'gray',
  sending: 'blue',
  installed: 'green',
  failed: 'red',
  removing: 'orange',
};

/** A span of seconds in words: "1 h 25 min", "12 min", "1 min 30 s". */
export function useFormatSpan() {
  const { t } = useTranslation();
  return useCallback(
    (seconds: number) => {
      const minutes = Math.floor(seconds / 60);
      const rest = seconds % 60;
      if (minutes >= 60) {
        return t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
      }
      if (rest > 0) return t('{{minutes}} min {{seconds}} s', { minutes, seconds: rest });
      return t('{{minutes}} min', { minutes });
    },
    [t],
  );
}
