import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { notFound } from '@kontrol/server-kit';
import { checkedImageType } from '../../lib/image-files.js';
import { nowIso } from '../../lib/time.js';
import type { AddressImageStore } from './address-image.js';
import { addressExists, findAddressImage, swapAddressImage } from './addresses.repository.js';

export interface AddressImageDeps {
  db: Kysely<Database>;
  images: AddressImageStore;
  /** Where a file that could not be removed after the database changed is reported. */
  log: FastifyBaseLogger;
}

/** Attempts at the compare-and-set of the image columns before giving up on a storm of uploads. */
const SWAP_ATTEMPTS = 5;

/**
 * Sets the address's image from the upload `readUpload` reads. The type is taken from the bytes
 * (JPEG, PNG or WebP, else 422), the file is stored under a new random name, and the previous file
 * is removed once the address points at the new one.
 */
export async function replaceAddressImage(
  deps: AddressImageDeps,
  organisationId: number,
  addressId: number,
  readUpload: () => Promise<Uint8Array>,
) {
  // Another organisation's address is a 404 whatever was uploaded to it.
  if (!(await addressExists(deps.db, organisationId, addressId))) throw notFound();
  const bytes = await readUpload();
  const type = checkedImageType(bytes);

  const file = await deps.images.save(bytes, type);
  try {
    const previous = await swapImage(deps, organisationId, addressId, { file, type });
    if (previous) await discardImageFile(deps, previous);
  } catch (error) {
    await discardImageFile(deps, file);
    throw error;
  }
}

/** Removes the address's image, if it has one. */
export async function removeAddressImage(deps: AddressImageDeps, organisationId: number, addressId: number) {
  const previous = await swapImage(deps, organisationId, addressId, null);
  if (previous) await discardImageFile(deps, previous);
}

/** Points the address at `next` (or at no image); answers the file it pointed at before. */
async function swapImage(
  deps: AddressImageDeps,
  organisationId: number,
  addressId: number,
  next: { file: string; type: string } | null,
): Promise<string | null> {
  for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt += 1) {
    const current = await findAddressImage(deps.db, organisationId, addressId);
    if (!current) throw notFound();
    if (next === null && current.image_file === null) return null;
    const now = nowIso();
    const image = next
      ? { file: next.file, type: next.type, updatedAt: now }
      : { file: null, type: null, updatedAt: null };
    if (await swapAddressImage(deps.db, organisationId, addressId, current.image_file, image, now)) {
      return current.image_file;
    }
  }
  throw new Error(`address ${addressId}: the image changed under ${SWAP_ATTEMPTS} attempts in a row`);
}

/** The address's image file, open for reading, with its type; 404 when there is none. */
export async function openAddressImage(deps: AddressImageDeps, organisationId: number, addressId: number) {
  const current = await findAddressImage(deps.db, organisationId, addressId);
  if (!current?.image_file || !current.image_type) throw notFound();
  const handle = await deps.images.open(current.image_file);
  if (!handle) throw notFound();
  return { handle, type: current.image_type };
}

/** A file the database no longer names is only litter: failing to remove it fails no request. */
export async function discardImageFile(deps: AddressImageDeps, fileName: string) {
  try {
    await deps.images.remove(fileName);
  } catch (error) {
    deps.log.warn({ err: error, fileName }, 'could not remove an address image file');
  }
}
