import type { Address, Device, Room } from '@kontrol/contracts';
import { Alert, Fieldset, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/date-fields';
import { toApiFailure } from '../../../lib/api-errors';
import { formatCalendarDate, zonedToday } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useCurrentReport } from '../api/get-current-report';
import type { DrawnBand } from '../template-form-values';
import { localDayRange, NormChart, type CurrentSeries } from './norm-chart';

/** Today in the browser's time zone, `YYYY-MM-DD`. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The address a device stands at, through its room (reference data). */
function addressOf(
  device: Device | undefined,
  rooms: readonly Room[] | undefined,
  addresses: readonly Address[] | undefined,
): Address | undefined {
  const room = device && rooms?.find((one) => one.id === device.room_id);
  return room ? addresses?.find((one) => one.id === room.address_id) : undefined;
}

/**
 * The editor's preview: a chosen device's real current over a chosen local day (GET
 * /devices/reports/dashboard), with the norm bands of the form as it stands now shaded over it.
 * The device is the first one using the template unless the user picks another of the type.
 */
export function NormPreview({
  devices,
  preferred,
  bands,
}: {
  /** The devices the template may watch (of its type), in the order to offer them. */
  devices: readonly Device[];
  /** The device shown until the user picks one (the first device using the template). */
  preferred: number | null;
  bands: readonly DrawnBand[];
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | null>(null);
  const user = useCurrentUser();
  const rooms = useReferenceList<Room>(user, 'rooms');
  const addresses = useReferenceList<Address>(user, 'addresses');
  /** The date the user chose; until then the device's today, at its address (not the browser's). */
  const [chosenDate, setDate] = useState<string | null>(null);
  const options = useMemo(
    () => devices.map((device) => ({ value: String(device.id), label: device.name })),
    [devices],
  );
  const fallback = preferred ?? devices[0]?.id ?? null;
  const deviceId =
    picked !== null && devices.some((device) => String(device.id) === picked) ? Number(picked) : fallback;
  const device = devices.find((one) => one.id === deviceId);
  // The device's zone: from its address, or, for a user who may not read addresses, from the
  // last answer about it (which names it); until then the browser's day is asked for.
  const [answeredZone, setAnsweredZone] = useState<{ device: number; zone: string } | null>(null);
  const timeZone =
    addressOf(device, rooms, addresses)?.time_zone ??
    (answeredZone?.device === deviceId ? answeredZone.zone : undefined);
  const date = chosenDate ?? (timeZone ? zonedToday(timeZone) : localToday());
  const { data: report, error, isPending, isFetching } = useCurrentReport(deviceId, date);
  if (
    report &&
    report.device_id === deviceId &&
    (answeredZone?.device !== deviceId || answeredZone.zone !== report.time_zone)
  )
    setAnsweredZone({ device: report.device_id, zone: report.time_zone });
  const series = useMemo<CurrentSeries | null>(
    () =>
      report
        ? {
            t: report.t,
            mean: report.mean,
            min: report.min,
            max: report.max,
            timeZone: report.time_zone,
            day: localDayRange(report.date, report.time_zone),
          }
        : null,
    [report],
  );
  const dayLabel = useMemo(() => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
    return formatCalendarDate(date);
  }, [date]);

  return (
    <Fieldset legend={t('Preview on real current')} variant="filled">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('The bands as they stand in the form, over a device’s current by the minute.')}
        </Text>
        <Group align="end" gap="sm">
          <Select
            label={t('Preview device')}
            data={options}
            value={deviceId === null ? null : String(deviceId)}
            onChange={setPicked}
            searchable
            limit={100}
            nothingFoundMessage={t('Nothing found')}
            allowDeselect={false}
            disabled={options.length === 0}
            placeholder={options.length === 0 ? t('No devices of this type') : undefined}
            w={{ base: '100%', sm: 280 }}
          />
          <DateField label={t('Day')} value={date} onChange={setDate} w={{ base: '100%', sm: 180 }} />
          {isFetching && <Loader size="sm" aria-label={t('Loading…')} />}
        </Group>
        {deviceId === null ? (
          <Text size="sm" c="dimmed" role="status">
            {t('Choose a device type with devices to preview the norm.')}
          </Text>
        ) : error && !report ? (
          <Alert color="red" role="alert">
            {(() => {
              const failure = toApiFailure(error);
              return failure.kind === 'connection'
                ? t('Connection error. Please try again later')
                : failure.message;
            })()}
          </Alert>
        ) : series ? (
          <NormChart title={`${device?.name ?? ''}, ${dayLabel}`} series={series} bands={bands} />
        ) : isPending ? (
          <Text size="sm" c="dimmed" role="status">
            {t('Loading…')}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
