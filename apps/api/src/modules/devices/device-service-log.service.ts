import type { ServiceEntry, serviceEntryBodySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import {
  advanceNextServiceDate,
  deleteServiceEntry as deleteServiceEntryRow,
  findServiceEntry,
  insertServiceEntry,
  listServiceEntries,
} from './device-service-log.repository.js';
import { toServiceEntry } from './devices.presenter.js';
import { findDeviceState } from './devices.repository.js';

export type ServiceEntryInput = z.output<typeof serviceEntryBodySchema>;

/** `YYYY-MM-DD` plus whole days, on the calendar (no time zone involved). */
export function addDays(date: string, days: number): string {
  const moment = new Date(`${date}T00:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString().slice(0, 10);
}

async function requireDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  const device = await findDeviceState(db, organisationId, deviceId);
  if (!device) throw notFound();
  return device;
}

export async function listDeviceServiceLog(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
): Promise<ServiceEntry[]> {
  await requireDevice(db, organisationId, deviceId);
  return (await listServiceEntries(db, organisationId, deviceId)).map(toServiceEntry);
}

/**
 * Writes an entry. A `maintenance` entry on a device with a service interval moves the device's
 * next service date to the entry's date plus the interval, unless a later date is already set
 * (an older entry written late does not pull the date back).
 */
export async function addServiceEntry(
  db: Kysely<Database>,
  organisationId: number,
  userId: number,
  deviceId: number,
  input: ServiceEntryInput,
): Promise<ServiceEntry> {
  return db.transaction().execute(async (trx) => {
    const device = await requireDevice(trx, organisationId, deviceId);
    const now = nowIso();
    const id = await insertServiceEntry(trx, {
      organisation_id: organisationId,
      device_id: deviceId,
      date: input.date,
      kind: input.kind,
      performed_by: input.performed_by,
      part: input.part,
      note: input.note,
      created_by_user_id: userId,
      created_at: now,
    });
    if (input.kind === 'maintenance' && device.service_interval_days !== null) {
      const next = addDays(input.date, device.service_interval_days);
      await advanceNextServiceDate(trx, organisationId, deviceId, next, now);
    }
    const row = await findServiceEntry(trx, organisationId, deviceId, id);
    if (!row) throw new Error(`service entry ${id} vanished`);
    return toServiceEntry(row);
  });
}

/** Deletes an entry; the next service date stays as it is (it may have been set by hand since). */
export async function deleteServiceEntry(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  entryId: number,
) {
  await requireDevice(db, organisationId, deviceId);
  if (!(await deleteServiceEntryRow(db, organisationId, deviceId, entryId))) throw notFound();
}
