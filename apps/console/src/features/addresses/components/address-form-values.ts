import {
  DEFAULT_TIME_ZONE,
  DEFAULT_WORK_TIME,
  WEEKDAYS,
  type Address,
  type AddressBody,
  type Weekday,
} from '@kontrol/contracts';

/** One weekday in the form: its times stay while the day is switched off, so switching back restores them. */
export type DayFormValue = { works: boolean; open: string; close: string };
export type WorkTimeFormValue = Record<Weekday, DayFormValue>;

export type AddressFormValues = {
  name: string;
  full_address: string;
  city: string;
  time_zone: string;
  work_time: WorkTimeFormValue;
  /** As typed: a decimal point or comma, empty for "not given". */
  latitude: string;
  longitude: string;
};

/** Field paths the form shows under its fields; the failure alert lists only the others. */
export const ADDRESS_FORM_FIELDS: readonly string[] = [
  'name',
  'full_address',
  'city',
  'time_zone',
  'latitude',
  'longitude',
  'work_time',
  ...WEEKDAYS.flatMap((day) => [`work_time.${day}`, `work_time.${day}.open`, `work_time.${day}.close`]),
];

const FALLBACK_DAY = { open: '09:00', close: '21:00' };

export function toAddressFormValues(address?: Address): AddressFormValues {
  const workTime = address?.work_time ?? DEFAULT_WORK_TIME;
  return {
    name: address?.name ?? '',
    full_address: address?.full_address ?? '',
    city: address?.city ?? '',
    time_zone: address?.time_zone ?? DEFAULT_TIME_ZONE,
    work_time: Object.fromEntries(
      WEEKDAYS.map((day) => {
        const hours = workTime[day];
        return [day, { works: hours !== null, ...(hours ?? FALLBACK_DAY) }];
      }),
    ) as WorkTimeFormValue,
    latitude: address?.latitude == null ? '' : String(address.latitude),
    longitude: address?.longitude == null ? '' : String(address.longitude),
  };
}

/**
 * An empty coordinate is "not given"; a number with a decimal point or comma is sent as a number;
 * anything else is sent as typed, so the server's message ("wrong type") shows under the field.
 */
function coordinate(value: string): number | null {
  const trimmed = value.trim().replace(',', '.');
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : (trimmed as unknown as number);
}

export function toAddressBody(values: AddressFormValues): AddressBody {
  return {
    name: values.name,
    full_address: values.full_address,
    city: values.city,
    time_zone: values.time_zone,
    work_time: Object.fromEntries(
      WEEKDAYS.map((day) => {
        const { works, open, close } = values.work_time[day];
        return [day, works ? { open, close } : null];
      }),
    ) as AddressBody['work_time'],
    latitude: coordinate(values.latitude),
    longitude: coordinate(values.longitude),
  };
}
