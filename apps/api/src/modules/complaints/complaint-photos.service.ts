import { COMPLAINT_PHOTO_NAME, type ComplaintPhoto } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { notFound } from '@kontrol/server-kit';
import { checkedImageType, type ImageFileStore } from '../../lib/image-files.js';
import { nowIso } from '../../lib/time.js';
import { complaintPhotoUrl } from './complaints.presenter.js';
import { findPhoto, insertPhoto } from './complaints.repository.js';

export interface ComplaintPhotoDeps {
  db: Kysely<Database>;
  photos: ImageFileStore;
  /** Where a file that could not be removed after a failed insert is reported. */
  log: FastifyBaseLogger;
}

/**
 * Stores an uploaded complaint photo with the rules of every upload (lib/image-files.ts): JPEG,
 * PNG or WebP by its bytes, at most ADDRESS_IMAGE_MAX_BYTES (else 422 on `image`), under a new
 * random name, recorded as the organisation's. A complaint or a comment names it afterwards.
 */
export async function uploadComplaintPhoto(
  deps: ComplaintPhotoDeps,
  organisationId: number,
  bytes: Uint8Array,
): Promise<ComplaintPhoto> {
  const type = checkedImageType(bytes);
  const file = await deps.photos.save(bytes, type);
  try {
    await insertPhoto(deps.db, { file, organisationId, type, now: nowIso() });
  } catch (error) {
    try {
      await deps.photos.remove(file);
    } catch (removal) {
      deps.log.warn({ err: removal, file }, 'could not remove a complaint photo file');
    }
    throw error;
  }
  return { photo: file, url: complaintPhotoUrl(file) };
}

/** One of the organisation's photos, open for reading, with its type; 404 otherwise. */
export async function openComplaintPhoto(deps: ComplaintPhotoDeps, organisationId: number, file: string) {
  // Checked before the database is asked, and again by the store before the disk is.
  if (!COMPLAINT_PHOTO_NAME.test(file)) throw notFound();
  const photo = await findPhoto(deps.db, organisationId, file);
  if (!photo) throw notFound();
  const handle = await deps.photos.open(photo.file);
  if (!handle) throw notFound();
  return { handle, type: photo.type };
}
