import type { Address, WorkTime } from '@kontrol/contracts';
import type { AddressRow } from './addresses.repository.js';

/**
 * Where the console loads an address's image from. `v` changes with every upload, so a browser
 * may keep the image as long as the address says the same URL.
 */
export function addressImageUrl(addressId: number, imageUpdatedAt: string | null): string | null {
  if (imageUpdatedAt === null) return null;
  return `/api/addresses/${addressId}/image?v=${Date.parse(imageUpdatedAt)}`;
}

/** An address as the API answers it (contracts `addressSchema`). */
export function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    name: row.name,
    full_address: row.full_address,
    city: row.city,
    time_zone: row.time_zone,
    work_time: JSON.parse(row.work_time) as WorkTime,
    latitude: row.latitude,
    longitude: row.longitude,
    image_url: row.image_file ? addressImageUrl(row.id, row.image_updated_at) : null,
    rooms_count: Number(row.rooms_count ?? 0),
    devices_count: Number(row.devices_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
