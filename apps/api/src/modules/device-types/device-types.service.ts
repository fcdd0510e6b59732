import type { Locale } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { toDeviceType } from './device-types.presenter.js';
import { listDeviceTypes } from './device-types.repository.js';

/** Every device type in display order, named in `locale`. */
export async function deviceTypes(db: Kysely<Database>, locale: Locale) {
  return (await listDeviceTypes(db)).map((row) => toDeviceType(row, locale));
}
