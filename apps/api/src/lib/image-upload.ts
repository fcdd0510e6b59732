import multipart from '@fastify/multipart';
import { ADDRESS_IMAGE_MAX_BYTES } from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '@kontrol/server-kit';
import { imageMissing, imageTooLarge } from './image-files.js';

/** One file, a few small form fields at most: nothing else is read from an upload. */
const UPLOAD_LIMITS = {
  fileSize: ADDRESS_IMAGE_MAX_BYTES,
  files: 1,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 25,
  headerPairs: 100,
};

/**
 * Lets the routes of `scope` (an encapsulated plugin) read one image upload; register it only in
 * the scope of the upload routes, so no other route accepts a body it would never read.
 */
export async function acceptImageUploads(scope: FastifyInstance) {
  await scope.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
}

/**
 * The first file part of a multipart request, whatever its field name (the console sends `image`),
 * cut off past ADDRESS_IMAGE_MAX_BYTES: 422 on `image` when there is none or it is too large,
 * 400 for a body cut short. The route must be in a scope with {@link acceptImageUploads}.
 */
export async function readImageUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw imageMissing();
  let bytes: Buffer | undefined;
  try {
    const part = await request.file({ limits: UPLOAD_LIMITS });
    bytes = await part?.toBuffer();
  } catch (error) {
    if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) throw imageTooLarge();
    // Busboy's own complaints (a body cut short, a broken boundary) carry no status or code.
    if (error instanceof Error && !('statusCode' in error) && !('code' in error)) {
      throw new HttpError(400, 'http.bad_request');
    }
    throw error;
  }
  if (!bytes) throw imageMissing();
  return bytes;
}
