import { MAX_TELEMETRY_RANGE_DAYS, type Address, type Device, type Resolution } from '@kontrol/contracts';
import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  useMatches,
  Select,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/date-fields';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { isoMoment } from '../../../config/paths';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { useLiveSamples, withLiveTails } from '../../../lib/use-live-samples';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { downloadTelemetryCsv } from '../api/download-telemetry-csv';
import { useDefaultDevices } from '../default-devices';
import { useTelemetry, type TelemetryRequest } from '../api/get-telemetry';
import { pointCount, toChartSeries, toRollupRows, toSampleRows } from '../telemetry-data';
import {
  GAP_MS,
  PERIOD_PRESETS,
  TELEMETRY_PARAMS,
  browserTimeZone,
  fromLocalInput,
  parseDeviceIds,
  parsePage,
  parseResolution,
  periodOf,
  periodProblem,
  presetAnchor,
  toLocalInput,
  type PeriodChoice,
  type PeriodPreset,
} from '../telemetry-view';
import { DownloadButton } from './download-button';
import {
  MIN_TEMPERATURE_SPAN,
  TelemetryChart,
  type TelemetryChartRange,
} from '../../../components/telemetry-chart';
import { TelemetryDevicePicker } from './telemetry-device-picker';
import { RollupTable, SampleTable } from './telemetry-table';

/** A period of the user's own in the query string: its start and finish, and no preset. */
function customPeriod(start: number, finish: number) {
  return { start: isoMoment(start), finish: isoMoment(finish), period: TELEMETRY_PARAMS.period };
}

/**
 * The telemetry tab: devices and a period chosen above (kept in the query string), the current and
 * temperature charts of the devices over it, the same data as a table, and the period's raw
 * samples as a CSV download.
 */
export function TelemetryPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const devices = useReferenceList<Device>(user, 'devices');
  const addresses = useReferenceList<Address>(user, 'addresses');
  const [params, setParams] = useSearchParamsState(TELEMETRY_PARAMS);
  // "Now" of the presets: held still so the request does not change on every render; "Refresh" moves it.
  const [anchor, setAnchor] = useState(presetAnchor);
  const [zoom, setZoom] = useState<TelemetryChartRange | null>(null);
  // What "Download CSV" writes: the rows the screen shows, or every raw sample of the period.
  const [csvContents, setCsvContents] = useState<'screen' | 'raw'>('screen');
  const tz = useMemo(browserTimeZone, []);
  const periodLabelId = useId();

  const chosen = useMemo(() => parseDeviceIds(params.devices), [params.devices]);
  // Opened without a choice: the devices with problems, or the first ones, are charted at once.
  const {
    ids: defaultIds,
    pending: defaultPending,
    done: defaultTaken,
  } = useDefaultDevices(devices, params.devices === '');
  useEffect(() => {
    if (defaultIds === null) return;
    defaultTaken();
    if (defaultIds.length > 0) setParams({ devices: defaultIds.join(',') }, { replace: true });
  }, [defaultIds, defaultTaken, setParams]);
  const { choice, period } = useMemo(
    () => periodOf({ period: params.period, start: params.start, finish: params.finish }, anchor),
    [params.period, params.start, params.finish, anchor],
  );
  const problem = periodProblem(period);
  const resolution = parseResolution(params.resolution);
  const page = parsePage(params.samples_page);
  const band = params.band !== 'off';

  const request = useMemo<TelemetryRequest | null>(
    () =>
      chosen.length > 0 && problem === null
        ? { devices: chosen, start: period.start, finish: period.finish, resolution, page, tz }
        : null,
    [chosen, period, problem, resolution, page, tz],
  );
  const { data, error, isPending, isFetching, refetch } = useTelemetry(request);
  const answer = request ? data?.data : undefined;

  const meta = request ? data?.meta : undefined;
  // A preset period ends now: the charts follow the devices' new samples as they come (SSE).
  const following = choice !== 'custom' && answer !== undefined && !meta?.has_more;
  const tails = useLiveSamples(chosen, following, answer);
  const charted = useMemo(() => answer && withLiveTails(answer, tails), [answer, tails]);

  const names = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);
  const currentSeries = useMemo(
    () => (charted ? toChartSeries(charted, names, 'current', band) : []),
    [charted, names, band],
  );
  const temperatureSeries = useMemo(
    () => (charted ? toChartSeries(charted, names, 'temperature', band) : []),
    [charted, names, band],
  );
  const rollupRows = useMemo(
    () => (answer && answer.resolution !== 'raw' ? toRollupRows(answer, names) : []),
    [answer, names],
  );
  const sampleRows = useMemo(
    () => (answer && answer.resolution === 'raw' ? toSampleRows(answer, names) : []),
    [answer, names],
  );
  const chartRange = useMemo(
    () => (charted ? { start: charted.start, finish: charted.finish } : undefined),
    [charted],
  );

  const resolutionLabels: Record<Resolution, string> = {
    auto: t('Automatic'),
    raw: t('Raw samples'),
    minute: t('Minutes'),
    hour: t('Hours'),
    day: t('Days'),
  };
  const presetLabels: Record<PeriodPreset, string> = {
    today: t('Today'),
    '24h': t('24 hours'),
    '7d': t('7 days'),
    '30d': t('30 days'),
  };

  const choosePeriod = (next: PeriodChoice) => {
    setZoom(null);
    if (next === 'custom') {
      setParams({ ...customPeriod(period.start, period.finish), samples_page: '1' });
    } else {
      setAnchor(presetAnchor());
      setParams({ period: next, start: '', finish: '', samples_page: '1' });
    }
  };
  const setEdge = (edge: 'start' | 'finish', text: string) => {
    const ms = fromLocalInput(text);
    if (ms === null) return;
    const next = { start: period.start, finish: period.finish, [edge]: ms };
    setParams({ ...customPeriod(next.start, next.finish), samples_page: '1' }, { replace: true });
  };
  const [startText, setStartText] = useSearchText(toLocalInput(period.start), (text) =>
    setEdge('start', text),
  );
  const [finishText, setFinishText] = useSearchText(toLocalInput(period.finish), (text) =>
    setEdge('finish', text),
  );
  const refresh = () => {
    if (choice === 'custom') void refetch();
    else setAnchor(presetAnchor());
  };
  const showZoomed = () => {
    if (!zoom) return;
    setParams({ ...customPeriod(zoom.start, zoom.finish), samples_page: '1' });
    setZoom(null);
  };

  const periodOrientation = useMatches<'vertical' | 'horizontal'>(
    { base: 'vertical', xs: 'horizontal' },
    { getInitialValueInEffect: false },
  );
  const failure = error && !isAbortError(error) ? toApiFailure(error) : null;
  const tableLabel = t('Telemetry data');

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Stack gap="md">
          <Group align="flex-start" gap="md">
            <TelemetryDevicePicker
              devices={devices}
              addresses={addresses}
              value={chosen}
              onChange={(ids) => {
                defaultTaken();
                setZoom(null);
                setParams({ devices: ids.join(','), samples_page: '1' });
              }}
            />
          </Group>
          <Group align="flex-end" gap="md">
            <Stack gap={4}>
              <Text size="sm" fw={500} id={periodLabelId}>
                {t('Period')}
              </Text>
              <SegmentedControl
                aria-labelledby={periodLabelId}
                // Five choices do not fit a phone's width side by side: one under the other there.
                orientation={periodOrientation}
                fullWidth={periodOrientation === 'vertical'}
                value={choice}
                onChange={(next) => choosePeriod(next)}
                data={[
                  ...PERIOD_PRESETS.map((preset) => ({ value: preset, label: presetLabels[preset] })),
                  { value: 'custom', label: t('Custom') },
                ]}
              />
            </Stack>
            <DateTimeField label={t('From')} value={startText} onChange={setStartText} w={220} />
            <DateTimeField label={t('To')} value={finishText} onChange={setFinishText} w={220} />
          </Group>
          <Group align="flex-end" gap="md">
            <Select
              label={t('Resolution')}
              data={(Object.keys(resolutionLabels) as Resolution[]).map((value) => ({
                value,
                label: resolutionLabels[value],
              }))}
              value={resolution}
              onChange={(next) => setParams({ resolution: next ?? 'auto', samples_page: '1' })}
              allowDeselect={false}
              w={200}
            />
            <Switch
              label={t('Min–max bands')}
              checked={band}
              onChange={(event) => setParams({ band: event.currentTarget.checked ? 'on' : 'off' })}
              disabled={answer?.resolution === 'raw'}
              mb={8}
            />
            <Button variant="default" onClick={refresh} disabled={!request} loading={isFetching}>
              {t('Refresh')}
            </Button>
            <Select
              label={t('CSV contents')}
              data={[
                {
                  value: 'screen',
                  label: t('As on the screen: {{resolution}}', {
                    resolution: resolutionLabels[answer?.resolution ?? resolution],
                  }),
                },
                { value: 'raw', label: t('Raw samples') },
              ]}
              value={csvContents}
              onChange={(next) => setCsvContents(next === 'raw' ? 'raw' : 'screen')}
              allowDeselect={false}
              w={260}
            />
            <DownloadButton
              label={t('Download CSV')}
              countRows
              disabled={chosen.length === 0 || problem !== null}
              download={(options) =>
                downloadTelemetryCsv(
                  {
                    devices: chosen,
                    start: period.start,
                    finish: period.finish,
                    // The screen's own resolution once it has answered (`auto` resolved), else as asked.
                    resolution: csvContents === 'raw' ? 'raw' : (answer?.resolution ?? resolution),
                    tz,
                  },
                  options,
                )
              }
            />
          </Group>
          {problem && (
            <Alert color="red" role="alert">
              {problem === 'order'
                ? t('The end of the period must come after its start.')
                : t('A period may be at most {{days}} days long.', { days: MAX_TELEMETRY_RANGE_DAYS })}
            </Alert>
          )}
        </Stack>
      </Paper>

      <FormFailure failure={failure} fields={[]} />

      {chosen.length === 0 && defaultPending ? (
        <PageLoader inline />
      ) : chosen.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" role="status">
          {t('Choose one or more devices to see their current and temperature.')}
        </Text>
      ) : request && isPending ? (
        <PageLoader inline />
      ) : answer ? (
        <Stack gap="lg" aria-busy={isFetching}>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {t('Resolution: {{resolution}}', { resolution: resolutionLabels[answer.resolution] })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('Points: {{count}}', { count: formatNumber(pointCount(answer)) })}
            </Text>
            {zoom && (
              <Button variant="light" size="compact-sm" onClick={showZoomed}>
                {t('Show the zoomed interval in detail')}
              </Button>
            )}
          </Group>
          <TelemetryChart
            title={t('Current')}
            unit={t('A')}
            series={currentSeries}
            range={chartRange}
            gapMs={GAP_MS[answer.resolution]}
            onZoom={setZoom}
          />
          <TelemetryChart
            title={t('Temperature')}
            unit="°C"
            minSpan={MIN_TEMPERATURE_SPAN}
            series={temperatureSeries}
            range={chartRange}
            gapMs={GAP_MS[answer.resolution]}
            onZoom={setZoom}
          />
          <Stack gap="xs">
            <Text fw={700} component="h2" size="lg">
              {tableLabel}
            </Text>
            {answer.resolution === 'raw' ? (
              <>
                <SampleTable rows={sampleRows} label={tableLabel} />
                {meta && (meta.has_more || meta.current_page > 1) && (
                  <Group gap="xs" aria-label={t('Pages of samples')} role="group">
                    <Button
                      variant="default"
                      size="compact-sm"
                      disabled={meta.current_page <= 1}
                      onClick={() => setParams({ samples_page: String(meta.current_page - 1) })}
                    >
                      {t('Previous page')}
                    </Button>
                    <Text size="sm">{t('Page {{page}}', { page: meta.current_page })}</Text>
                    <Button
                      variant="default"
                      size="compact-sm"
                      disabled={!meta.has_more}
                      onClick={() => setParams({ samples_page: String(meta.current_page + 1) })}
                    >
                      {t('Next page')}
                    </Button>
                    {meta.has_more && (
                      <Text size="sm" c="dimmed">
                        {t('The period holds more samples than one page: the charts show this page.')}
                      </Text>
                    )}
                  </Group>
                )}
              </>
            ) : (
              <RollupTable rows={rollupRows} label={tableLabel} />
            )}
          </Stack>
        </Stack>
      ) : null}
    </Stack>
  );
}
