import {
  ADDRESS_IMAGE_MAX_BYTES,
  ADDRESS_IMAGE_TYPES,
  COMPLAINT_MAX_PHOTOS,
  type ComplaintPhoto,
} from '@kontrol/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbortError, toApiFailure } from '../../lib/api-errors';
import { formatNumber } from '../../lib/format';
import { uploadComplaintPhoto } from './api/upload-complaint-photo';

/** Complaint photos take the image types and size of address and recipe images (5 MB). */
export const PHOTO_TYPES: readonly string[] = ADDRESS_IMAGE_TYPES;
export const PHOTO_MAX_BYTES = ADDRESS_IMAGE_MAX_BYTES;

/** One chosen photo: on its way to the server, there, or refused by it. */
export interface PhotoUpload {
  key: string;
  /** The file's own name, to tell photos apart while they upload. */
  fileName: string;
  state: 'uploading' | 'done' | 'failed';
  /** Share sent so far, 0–1. */
  progress: number;
  photo: ComplaintPhoto | null;
  /** Why the server refused it. */
  problem: string | null;
}

let nextKey = 0;

/**
 * The photos of a complaint or a comment being written: each chosen file is checked here (type,
 * size, how many; the server checks again) and sent at once (`POST /api/alerts/photo`) with its
 * progress; `photos` are the names the body then carries. Removing one before sending drops it
 * (and stops its upload). Uploads still running when the form goes away are stopped.
 */
export function usePhotoUploads() {
  const { t } = useTranslation();
  const [items, setItems] = useState<PhotoUpload[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const count = useRef(0);
  count.current = items.filter((item) => item.state !== 'failed').length;

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const update = (key: string, patch: Partial<PhotoUpload>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const add = useCallback(
    (files: readonly File[]) => {
      const refused: string[] = [];
      const size = formatNumber(PHOTO_MAX_BYTES / (1024 * 1024));
      const accepted: File[] = [];
      for (const file of files) {
        if (!PHOTO_TYPES.includes(file.type)) {
          refused.push(t('«{{name}}» is not a JPEG, PNG or WebP image.', { name: file.name }));
        } else if (file.size > PHOTO_MAX_BYTES) {
          refused.push(t('«{{name}}» is larger than {{size}} MB.', { name: file.name, size }));
        } else if (count.current + accepted.length >= COMPLAINT_MAX_PHOTOS) {
          refused.push(
            t('«{{name}}» was not added: at most {{max}} photos.', {
              name: file.name,
              max: COMPLAINT_MAX_PHOTOS,
            }),
          );
        } else {
          accepted.push(file);
        }
      }
      setProblems(refused);
      const added = accepted.map<PhotoUpload>((file) => ({
        key: `photo-${++nextKey}`,
        fileName: file.name,
        state: 'uploading',
        progress: 0,
        photo: null,
        problem: null,
      }));
      count.current += added.length;
      setItems((current) => [...current, ...added]);
      added.forEach((item, index) => {
        const file = accepted[index] as File;
        const controller = new AbortController();
        controllers.current.set(item.key, controller);
        uploadComplaintPhoto(file, (progress) => update(item.key, { progress }), controller.signal)
          .then((photo) => update(item.key, { state: 'done', progress: 1, photo }))
          .catch((error: unknown) => {
            if (isAbortError(error)) return;
            const failure = toApiFailure(error);
            update(item.key, {
              state: 'failed',
              problem:
                failure.kind === 'connection'
                  ? t('Connection error. Please try again later')
                  : failure.kind === 'validation'
                    ? Object.values(failure.errors).flat().join(' ') || failure.message
                    : failure.message,
            });
          })
          .finally(() => controllers.current.delete(item.key));
      });
    },
    [t],
  );

  const remove = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
    setProblems([]);
  }, []);

  const reset = useCallback(() => {
    for (const controller of controllers.current.values()) controller.abort();
    controllers.current.clear();
    setItems([]);
    setProblems([]);
  }, []);

  const photos = useMemo(
    () => items.flatMap((item) => (item.state === 'done' && item.photo ? [item.photo.photo] : [])),
    [items],
  );
  const busy = items.some((item) => item.state === 'uploading');
  return { items, problems, photos, busy, add, remove, reset };
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>;

/** The server's messages on `photos` and on single photos (`photos.2`) in a form's errors, joined. */
export function photoErrorsOf(errors: Record<string, unknown>): string | undefined {
  const text = Object.entries(errors)
    .filter(([key]) => key === 'photos' || key.startsWith('photos.'))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');
  return text || undefined;
}
