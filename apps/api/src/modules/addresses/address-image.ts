import { join } from 'node:path';
import { ImageFileStore } from '../../lib/image-files.js';

export { IMAGE_EXTENSIONS, sniffImageType } from '../../lib/image-files.js';

/** Address images on disk, in `<UPLOADS_DIR>/addresses/` (names and checks: lib/image-files.ts). */
export class AddressImageStore extends ImageFileStore {
  constructor(uploadsDir: string) {
    super(join(uploadsDir, 'addresses'));
  }
}
