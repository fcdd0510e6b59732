import { DEVICE_STATES, type DeviceState, type TelemetryAnswer } from '@kontrol/contracts';
import { seriesStyle, type TelemetryChartSeries } from '../../components/telemetry-chart';

type Series = TelemetryAnswer['data']['series'][number];

/** A device's name for the charts and the table; `#id` when the reference list does not have it. */
export function deviceName(names: ReadonlyMap<number, string>, id: number): string {
  return names.get(id) ?? `#${id}`;
}

const column = (series: Series, name: string): readonly (number | null)[] => series.values[name] ?? [];

const hasValue = (values: readonly (number | null)[]) => values.some((value) => value !== null);

/**
 * The lines of one chart: `metric` (current or temperature) of every device of the answer, with
 * its min–max band for rollups when `band` is on. A device keeps its colour on every chart (its
 * place in the answer); a device without any value of the metric (a hob has no temperature) is
 * left out of that chart.
 */
export function toChartSeries(
  answer: TelemetryAnswer['data'],
  names: ReadonlyMap<number, string>,
  metric: 'current' | 'temperature',
  band: boolean,
): TelemetryChartSeries[] {
  const rollup = answer.resolution !== 'raw';
  const lines: TelemetryChartSeries[] = [];
  answer.series.forEach((series, index) => {
    const values = column(series, metric);
    if (!hasValue(values)) return;
    const style = seriesStyle(index);
    lines.push({
      label: deviceName(names, series.device_id),
      t: series.t,
      values,
      ...(rollup && band
        ? { min: column(series, `${metric}_min`), max: column(series, `${metric}_max`) }
        : {}),
      color: style.color,
      dash: style.dash,
    });
  });
  return lines;
}

/** One row of the table at a rollup resolution: a device's bucket. */
export interface RollupRow {
  id: string;
  t: number;
  deviceId: number;
  device: string;
  current: number | null;
  currentMin: number | null;
  currentMax: number | null;
  temperature: number | null;
  temperatureMin: number | null;
  temperatureMax: number | null;
  /** Share of working samples, 0–1. */
  working: number | null;
}

/** One row of the table at raw resolution: a sample. */
export interface SampleRow {
  id: string;
  t: number;
  deviceId: number;
  device: string;
  current: number | null;
  temperature: number | null;
  state: DeviceState | null;
}

const at = (values: readonly (number | null)[] | undefined, index: number) => values?.[index] ?? null;

/** The table of a rollup answer: one row per device and bucket, by time, then in the devices' order. */
export function toRollupRows(
  answer: TelemetryAnswer['data'],
  names: ReadonlyMap<number, string>,
): RollupRow[] {
  const rows: RollupRow[] = [];
  for (const series of answer.series) {
    const device = deviceName(names, series.device_id);
    const v = series.values;
    series.t.forEach((t, i) => {
      rows.push({
        id: `${series.device_id}-${t}`,
        t,
        deviceId: series.device_id,
        device,
        current: at(v.current, i),
        currentMin: at(v.current_min, i),
        currentMax: at(v.current_max, i),
        temperature: at(v.temperature, i),
        temperatureMin: at(v.temperature_min, i),
        temperatureMax: at(v.temperature_max, i),
        working: at(v.working, i),
      });
    });
  }
  // A stable sort: within a bucket the devices keep the order they were chosen in.
  return rows.sort((a, b) => a.t - b.t);
}

/** The table of a raw page: its samples as the server ordered them (by device, then time). */
export function toSampleRows(
  answer: TelemetryAnswer['data'],
  names: ReadonlyMap<number, string>,
): SampleRow[] {
  const rows: SampleRow[] = [];
  for (const series of answer.series) {
    const device = deviceName(names, series.device_id);
    const v = series.values;
    series.t.forEach((t, i) => {
      const state = at(v.state, i);
      rows.push({
        id: `${series.device_id}-${t}`,
        t,
        deviceId: series.device_id,
        device,
        current: at(v.current, i),
        temperature: at(v.temperature, i),
        state: state === null ? null : (DEVICE_STATES[state] ?? null),
      });
    });
  }
  return rows;
}

/** How many points an answer holds, all devices together. */
export function pointCount(answer: TelemetryAnswer['data']): number {
  return answer.series.reduce((sum, series) => sum + series.t.length, 0);
}
