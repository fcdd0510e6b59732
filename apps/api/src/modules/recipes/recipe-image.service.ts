import { RECIPE_IMAGE_NAME } from '@kontrol/contracts';
import { notFound } from '@kontrol/server-kit';
import { checkedImageType } from '../../lib/image-files.js';
import { nowIso } from '../../lib/time.js';
import { findImage, insertImage } from './recipes.repository.js';
import { recipeImageUrl } from './recipes.presenter.js';
import type { RecipeDeps } from './recipes.service.js';

/**
 * Stores an uploaded recipe image: JPEG, PNG or WebP by its bytes, at most ADDRESS_IMAGE_MAX_BYTES
 * (else 422 on `image`), under a new random name, recorded as the organisation's. A recipe names it
 * afterwards (`image` of `POST`/`PUT /api/recipes/`).
 */
export async function uploadRecipeImage(deps: RecipeDeps, organisationId: number, bytes: Uint8Array) {
  const type = checkedImageType(bytes);
  const file = await deps.images.save(bytes, type);
  try {
    await insertImage(deps.db, { file, organisationId, type, now: nowIso() });
  } catch (error) {
    try {
      await deps.images.remove(file);
    } catch (removal) {
      deps.log.warn({ err: removal, file }, 'could not remove a recipe image file');
    }
    throw error;
  }
  return { image: file, url: recipeImageUrl(file) };
}

/** One of the organisation's images, open for reading, with its type; 404 otherwise. */
export async function openRecipeImage(deps: RecipeDeps, organisationId: number, file: string) {
  // Checked before the database is asked, and again by the store before the disk is.
  if (!RECIPE_IMAGE_NAME.test(file)) throw notFound();
  const image = await findImage(deps.db, organisationId, file);
  if (!image) throw notFound();
  const handle = await deps.images.open(image.file);
  if (!handle) throw notFound();
  return { handle, type: image.type };
}
