import { createHash, timingSafeEqual } from 'node:crypto';
import type { TelemetryKind } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/** What the gateway needs to know about a device to accept and store its samples. */
export interface GatewayDevice {
  id: number;
  organisationId: number;
  controllerId: string | null;
  /** SHA-256 (hex) of the credential it authenticated with; a rotation changes it. */
  credentialHash: string;
  /** IANA zone of the device's address: its local day for `work_start`. */
  timeZone: string;
  /** Current (A) above which it counts as working (its type's `idle_current_a`). */
  idleCurrentA: number;
  /** What its type reports: `temperature` and `door_open` are required from types that do. */
  reports: ReadonlySet<TelemetryKind>;
}

export function credentialHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Finds devices by their gateway credential (docs/device-protocol.md, "Authentication"). Reads
 * the database on every authentication, so a rotated or deleted credential stops working at the
 * next connection or request; `stillValid` lets the broker cut off sessions opened with a
 * credential that has since changed.
 */
export class DeviceDirectory {
  constructor(private readonly db: Kysely<Database>) {}

  private query() {
    return this.db
      .selectFrom('devices')
      .innerJoin('rooms', 'rooms.id', 'devices.room_id')
      .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
      .innerJoin('device_types', 'device_types.id', 'devices.type_id')
      .select([
        'devices.id',
        'devices.organisation_id',
        'devices.controller_id',
        'devices.credential_hash',
        'addresses.time_zone',
        'device_types.idle_current_a',
        'device_types.telemetry',
      ])
      .where('devices.credential_hash', 'is not', null);
  }

  private static toDevice(row: {
    id: number;
    organisation_id: number;
    controller_id: string | null;
    credential_hash: string | null;
    time_zone: string;
    idle_current_a: number;
    telemetry: string;
  }): GatewayDevice {
    return {
      id: row.id,
      organisationId: row.organisation_id,
      controllerId: row.controller_id,
      credentialHash: row.credential_hash ?? '',
      timeZone: row.time_zone,
      idleCurrentA: Number(row.idle_current_a),
      reports: new Set(JSON.parse(row.telemetry) as TelemetryKind[]),
    };
  }

  /** MQTT: the controller id (client id and user name) and its credential (password). */
  async byControllerId(controllerId: string, secret: string): Promise<GatewayDevice | undefined> {
    const row = await this.query().where('devices.controller_id', '=', controllerId).executeTakeFirst();
    if (!row?.credential_hash || !sameHash(row.credential_hash, credentialHash(secret))) return undefined;
    return DeviceDirectory.toDevice(row);
  }

  /**
   * An external broker's message: the broker has checked the credential and the topic (dynamic
   * security), so the controller id of the topic is enough.
   */
  async byControllerIdTrusted(controllerId: string): Promise<GatewayDevice | undefined> {
    const row = await this.query().where('devices.controller_id', '=', controllerId).executeTakeFirst();
    return row ? DeviceDirectory.toDevice(row) : undefined;
  }

  /** HTTP: the credential of `Authorization: Bearer …` alone. */
  async byCredential(secret: string): Promise<GatewayDevice | undefined> {
    const row = await this.query()
      .where('devices.credential_hash', '=', credentialHash(secret))
      .executeTakeFirst();
    return row ? DeviceDirectory.toDevice(row) : undefined;
  }

  /** Of these devices, the ids whose credential is still the one they authenticated with. */
  async stillValid(devices: readonly GatewayDevice[]): Promise<Set<number>> {
    const valid = new Set<number>();
    for (let start = 0; start < devices.length; start += 500) {
      const chunk = devices.slice(start, start + 500);
      const rows = await this.db
        .selectFrom('devices')
        .select(['id', 'credential_hash'])
        .where(
          'id',
          'in',
          chunk.map((device) => device.id),
        )
        .execute();
      const current = new Map(rows.map((row) => [row.id, row.credential_hash]));
      for (const device of chunk) {
        const hash = current.get(device.id);
        if (hash && hash === device.credentialHash) valid.add(device.id);
      }
    }
    return valid;
  }
}
