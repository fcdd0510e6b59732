import { Button, Group, Text, useComputedColorScheme } from '@mantine/core';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { useCanDraw, useUplot } from '../hooks/use-uplot';
import { formatDateTime, useIntlLocale } from '../lib/format';
import classes from './chart.module.css';

/** One line of a {@link TelemetryChart}: a device's values over time. */
export interface TelemetryChartSeries {
  /** The legend's name of the line (a device's name). */
  label: string;
  /** Times in epoch milliseconds, ascending. */
  t: readonly number[];
  /** One value per time; `null` where there is none (the line breaks there). */
  values: readonly (number | null)[];
  /** Lowest and highest value per time (rollups): drawn as a faint band around the line. */
  min?: readonly (number | null)[];
  max?: readonly (number | null)[];
  /** The line's colour and dash; by default {@link seriesStyle} of its position. */
  color?: string;
  dash?: readonly number[];
}

/**
 * A moment or span marked across the plot (a device event): a vertical line at its start and, up to
 * its end, a faint shade. Say what the markers are in text beside the chart: they are drawn only.
 */
export interface TelemetryChartMarker {
  /** Epoch milliseconds. */
  start: number;
  /** Its end; null while it lasts (shaded to the chart's end), undefined for a moment. */
  finish?: number | null;
  /** A `#rrggbb` colour keeping 3:1 contrast against the page, like {@link seriesStyle}'s. */
  color: string;
}

/** A span of time in epoch milliseconds. */
export interface TelemetryChartRange {
  start: number;
  finish: number;
}

export interface TelemetryChartProps {
  /** The chart's caption and accessible name, e.g. "Current". */
  title: string;
  /** The unit of the values, e.g. "A" or "°C": on the axis and after every value. */
  unit: string;
  series: readonly TelemetryChartSeries[];
  /** Height of the plot in CSS pixels (axes included, legend not). Default 280. */
  height?: number;
  /** The period the chart covers: the time axis spans it even where there are no values. */
  range?: TelemetryChartRange;
  /** A line breaks where two consecutive points are further apart than this (ms). */
  gapMs?: number;
  /** Fraction digits of the values shown. Default 1. */
  digits?: number;
  /** Called with the zoomed span after a drag across the chart, and with `null` when it is reset. */
  onZoom?: (range: TelemetryChartRange | null) => void;
  /** Moments and spans marked across the plot (device events). */
  markers?: readonly TelemetryChartMarker[];
  /**
   * The least span of the value axis, in the unit: a steady reading is drawn as the flat line it is
   * (a temperature chart takes {@link MIN_TEMPERATURE_SPAN}), not a tenth of a degree stretched over
   * the whole height.
   */
  minSpan?: number;
}

/** The least span of a temperature axis (°C). */
export const MIN_TEMPERATURE_SPAN = 2;

/**
 * Ten hues that keep at least 3:1 contrast against both the light (#fff) and the dark (#242424)
 * page (WCAG 1.4.11 for graphics), and dashes that tell apart lines beyond the tenth.
 */
const PALETTE = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f03e3e',
  '#0c8599',
  '#845ef7',
  '#a16207',
  '#e64980',
  '#7f7f7f',
] as const;
const DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [12, 4, 2, 4], [1, 5]];

/** The colour and dash of the `index`-th line, so several charts can draw a device alike. */
export function seriesStyle(index: number): { color: string; dash: readonly number[] } {
  return {
    color: PALETTE[index % PALETTE.length] as string,
    dash: DASHES[Math.floor(index / PALETTE.length) % DASHES.length] ?? [],
  };
}

/** Where a line's values sit in the aligned data: its own column and its band's, if any. */
interface Layout {
  line: number;
  band: { min: number; max: number } | null;
}

type Column = (number | null | undefined)[];

/**
 * The series on one time axis (uPlot's aligned data): each device's table, with a `null` put in
 * the gaps longer than `gapMs`, joined by time (a time one device lacks is `undefined` for it, which
 * uPlot draws across); the period's ends are added so the axis spans the whole period. Exported for
 * its tests.
 */
export function alignSeries(
  series: readonly TelemetryChartSeries[],
  gapMs: number | undefined,
  range: TelemetryChartRange | undefined,
): { data: uPlot.AlignedData; layout: Layout[]; points: number } {
  const tables: uPlot.AlignedData[] = [];
  const owners: number[] = [];
  let points = 0;
  series.forEach((one, index) => {
    const withBand = one.min !== undefined && one.max !== undefined;
    const xs: number[] = [];
    const columns: Column[] = withBand ? [[], [], []] : [[]];
    const sources = withBand ? [one.values, one.min ?? [], one.max ?? []] : [one.values];
    for (let i = 0; i < one.t.length; i += 1) {
      const time = one.t[i] as number;
      const previous = xs[xs.length - 1];
      if (gapMs !== undefined && previous !== undefined && time - previous > gapMs) {
        xs.push(previous + 1);
        for (const column of columns) column.push(null);
      }
      xs.push(time);
      sources.forEach((source, c) => (columns[c] as Column).push(source[i] ?? null));
      if (one.values[i] !== null && one.values[i] !== undefined) points += 1;
    }
    if (xs.length > 0) {
      tables.push([xs, ...columns] as uPlot.AlignedData);
      owners.push(index);
    }
  });

  const joined: Column[] =
    tables.length === 0 ? [[]] : (uPlot.join(tables) as unknown as Column[]).map((column) => [...column]);
  const xs = joined[0] as number[];
  // Columns of the series without any point: nothing but alignment gaps.
  const layout: Layout[] = [];
  const columns: Column[] = [xs];
  let next = 1;
  series.forEach((one, index) => {
    const withBand = one.min !== undefined && one.max !== undefined;
    const has = owners.includes(index);
    const take = () => (has ? (joined[next++] as Column) : new Array<undefined>(xs.length).fill(undefined));
    const line = columns.push(take()) - 1;
    const band = withBand ? { min: columns.push(take()) - 1, max: columns.push(take()) - 1 } : null;
    layout.push({ line, band });
  });

  if (range && xs.length > 0) {
    // Times outside every line (undefined for all): the axis reaches the period's ends.
    if ((xs[0] as number) > range.start) {
      for (const column of columns) column.unshift(undefined);
      xs[0] = range.start;
    }
    if ((xs[xs.length - 1] as number) < range.finish) {
      for (const column of columns) column.push(undefined);
      xs[xs.length - 1] = range.finish;
    }
  }
  return { data: columns as unknown as uPlot.AlignedData, layout, points };
}

/** A line's colour, faint, for its min–max band (a `#rrggbb` colour; anything else gets grey). */
function translucent(color: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? `${color}26` : 'rgba(128, 128, 128, 0.15)';
}

const DAY_MS = 86_400_000;

/**
 * The value axis's range for values from `min` to `max`: uPlot's own (a margin around them), widened
 * about their middle to `minSpan` when narrower. Exported for its tests.
 */
export function valueRange(min: number | null, max: number | null, minSpan: number): [number, number] {
  if (min === null || max === null) return [0, minSpan];
  const [low, high] = uPlot.rangeNum(min, max, 0.1, true);
  if (low !== null && high !== null && high - low >= minSpan) return [low, high];
  const middle = (min + max) / 2;
  return [middle - minSpan / 2, middle + minSpan / 2];
}

const NO_MARKERS: readonly TelemetryChartMarker[] = [];
const WHOLE_INCREMENTS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];

/** Draws the markers over the plot (uPlot's `draw` hook: canvas pixels, clipped to the plot). */
function drawMarkers(u: uPlot, markers: readonly TelemetryChartMarker[]): void {
  if (markers.length === 0) return;
  const { left, top, width, height } = u.bbox;
  const ctx = u.ctx;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  for (const marker of markers) {
    const x0 = u.valToPos(marker.start, 'x', true);
    if (marker.finish !== undefined) {
      const x1 = marker.finish === null ? left + width : u.valToPos(marker.finish, 'x', true);
      ctx.fillStyle = translucent(marker.color);
      ctx.fillRect(x0, top, Math.max(x1 - x0, 1), height);
    }
    ctx.strokeStyle = marker.color;
    ctx.lineWidth = 2 * uPlot.pxRatio;
    ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
    ctx.beginPath();
    ctx.moveTo(x0, top);
    ctx.lineTo(x0, top + height);
    ctx.stroke();
  }
  ctx.restore();
}

/** The longest span whose time axis reads as one day (a day across a daylight-saving change is 25 hours). */
const ONE_DAY_SPAN_MS = 25 * 3_600_000;

/**
 * Tick labels of the time axis: times of day across a day or less, dates for whole days, and
 * across several days a midnight named by its date alone. Every label is about as wide as the
 * rest: uPlot spaces ticks without measuring them, and a "27 Nov, 00:00" at a day chart's ends
 * ran into its neighbours and past the plot's right edge. Exported for its tests.
 */
export function timeTicks(locale: string) {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
  return (u: uPlot, splits: number[], _axis: number, _space: number, increment: number) => {
    const { min, max } = u.scales.x ?? {};
    const oneDay = min != null && max != null && max - min <= ONE_DAY_SPAN_MS;
    return splits.map((split) => {
      if (increment >= DAY_MS) return day.format(split);
      if (oneDay) return time.format(split);
      const moment = new Date(split);
      const midnight = moment.getHours() === 0 && moment.getMinutes() === 0;
      return midnight && increment >= 3_600_000 ? day.format(split) : time.format(split);
    });
  };
}

/** A dash pattern drawn as a short line in the legend, so a line is told by its dash too. */
function Swatch({ color, dash }: { color: string; dash: readonly number[] }) {
  return (
    <svg width="24" height="10" aria-hidden="true" className={classes.swatch}>
      <line x1="0" y1="5" x2="24" y2="5" stroke={color} strokeWidth="3" strokeDasharray={dash.join(' ')} />
    </svg>
  );
}

interface CursorValues {
  time: number | null;
  /** Per series: the value nearest the cursor, `undefined` when it has none there. */
  values: (number | null | undefined)[];
}

/**
 * A time-series chart on uPlot (the project's chart library: 100 000 points draw at once): one line
 * per series, each with its own colour and dash, an optional min–max band, zoom by dragging across
 * the plot (double-click or "Reset zoom" to undo), a legend whose entries show and hide their lines
 * and read the values under the cursor with its time in the interface language, and a size that
 * follows its container. It is a figure with a caption; the plot itself is an image named after
 * the chart. Without any value it says so instead.
 *
 * Independent of any screen: give it series of times and values.
 */
export function TelemetryChart({
  title,
  unit,
  series,
  height = 280,
  range,
  gapMs,
  digits = 1,
  onZoom,
  markers = NO_MARKERS,
  minSpan,
}: TelemetryChartProps) {
  const { t } = useTranslation();
  const captionId = useId();
  const hintId = useId();
  const scheme = useComputedColorScheme('light');
  const locale = useIntlLocale();
  const plotRef = useRef<HTMLDivElement>(null);
  const onZoomRef = useRef(onZoom);
  onZoomRef.current = onZoom;
  const markersRef = useRef(markers);
  markersRef.current = markers;
  const [zoomed, setZoomed] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  // A chart built again (new colours, another language) keeps the lines the user hid.
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const [cursor, setCursor] = useState<CursorValues>({ time: null, values: [] });
  const drawable = useCanDraw();

  const rangeStart = range?.start;
  const rangeFinish = range?.finish;
  const aligned = useMemo(
    () =>
      alignSeries(
        series,
        gapMs,
        rangeStart !== undefined && rangeFinish !== undefined
          ? { start: rangeStart, finish: rangeFinish }
          : undefined,
      ),
    [series, gapMs, rangeStart, rangeFinish],
  );
  // What the chart is built from besides its data: the same lines (names, colours, bands), size and
  // formats. A caller may pass new arrays on every render (live updates): the chart is built again
  // only when this changes, and otherwise only takes the new data, keeping the user's zoom.
  const lineKey = JSON.stringify(
    series.map((one, index) => {
      const fallback = seriesStyle(index);
      return [
        one.label,
        one.color ?? fallback.color,
        one.dash ?? fallback.dash,
        one.min !== undefined && one.max !== undefined,
      ];
    }),
  );
  const styles = useMemo(
    () =>
      (JSON.parse(lineKey) as [string, string, number[], boolean][]).map(([label, color, dash]) => ({
        label,
        color,
        dash,
      })),
    [lineKey],
  );
  const formats = useMemo(() => {
    return {
      value: new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }),
      moment: { format: (ms?: number) => formatDateTime(ms ?? Date.now(), { seconds: true }) },
      ticks: timeTicks(locale),
    };
  }, [digits, locale]);
  const hasPoints = aligned.points > 0;
  const alignedRef = useRef(aligned);
  alignedRef.current = aligned;
  const zoomedRef = useRef(zoomed);
  zoomedRef.current = zoomed;

  // Other lines show every line again.
  useEffect(() => setHidden(new Set()), [lineKey]);

  const frameRef = useRef(0);
  const create = useMemo(() => {
    if (!hasPoints || !drawable) return null;
    return (target: HTMLDivElement) => {
      const { layout } = alignedRef.current;
      const grid = scheme === 'dark' ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.1)';
      const uSeries: uPlot.Series[] = [{}];
      const bands: uPlot.Band[] = [];
      layout.forEach((place, index) => {
        const style = styles[index] ?? { label: '', ...seriesStyle(index) };
        const show = !hiddenRef.current.has(index);
        uSeries[place.line] = {
          label: style.label,
          show,
          stroke: style.color,
          width: 2,
          dash: [...style.dash],
          spanGaps: false,
        };
        if (place.band) {
          const edge: uPlot.Series = {
            label: `${style.label} (min/max)`,
            show,
            stroke: 'transparent',
            width: 0,
            points: { show: false },
          };
          uSeries[place.band.min] = { ...edge };
          uSeries[place.band.max] = { ...edge };
          bands.push({ series: [place.band.max, place.band.min], fill: translucent(style.color) });
        }
      });
      const ink = getComputedStyle(target).color || (scheme === 'dark' ? '#c9c9c9' : '#212529');
      const width = target.clientWidth || 600;
      return new uPlot(
        {
          width,
          height,
          ms: 1,
          series: uSeries,
          bands,
          legend: { show: false },
          cursor: { drag: { x: true, y: false, setScale: true } },
          scales: {
            x: { time: true },
            ...(minSpan === undefined
              ? {}
              : { y: { range: (_u: uPlot, min: number, max: number) => valueRange(min, max, minSpan) } }),
          },
          axes: [
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              values: formats.ticks,
            },
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              label: unit,
              labelSize: 20,
              size: 56,
              // Whole values (counts): whole ticks only, never 0.2 shown rounded as 0.
              ...(digits === 0 ? { incrs: WHOLE_INCREMENTS } : {}),
              values: (_u, splits) => splits.map((split) => formats.value.format(split)),
            },
          ],
          hooks: {
            draw: [(u) => drawMarkers(u, markersRef.current)],
            setCursor: [
              (u) => {
                cancelAnimationFrame(frameRef.current);
                frameRef.current = requestAnimationFrame(() => {
                  const idx = u.cursor.idx;
                  const idxs = u.cursor.idxs ?? [];
                  setCursor({
                    time: idx === null || idx === undefined ? null : (u.data[0][idx] ?? null),
                    values: layout.map((place) => {
                      const at = idxs[place.line];
                      return at === null || at === undefined ? undefined : u.data[place.line]?.[at];
                    }),
                  });
                });
              },
            ],
            setScale: [
              (u, key) => {
                if (key !== 'x') return;
                const xs = u.data[0];
                const first = xs[0];
                const last = xs[xs.length - 1];
                const { min, max } = u.scales.x ?? {};
                if (first === undefined || last === undefined || min == null || max == null) return;
                const isZoomed = min > first || max < last;
                if (isZoomed === zoomedRef.current && !isZoomed) return;
                zoomedRef.current = isZoomed;
                setZoomed(isZoomed);
                onZoomRef.current?.(isZoomed ? { start: Math.round(min), finish: Math.round(max) } : null);
              },
            ],
          },
        },
        alignedRef.current.data,
        target,
      );
    };
  }, [styles, height, unit, formats, scheme, hasPoints, drawable, minSpan, digits]);
  // A chart built again, or gone, is zoomed no more.
  const onDestroy = useCallback(() => {
    cancelAnimationFrame(frameRef.current);
    if (zoomedRef.current) {
      zoomedRef.current = false;
      setZoomed(false);
      onZoomRef.current?.(null);
    }
  }, []);
  // A task of its own: uPlot's first draw (measuring, axes, the canvas) is one piece of work
  // that cannot be sliced; apart from the render that mounted the chart, neither is a long task.
  const chartRef = useUplot({ target: plotRef, create, deferred: true, onDestroy });

  // New data for the same lines: the chart takes it; a zoomed chart keeps its zoom.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || chart.data === aligned.data) return;
    chart.setData(aligned.data, !zoomedRef.current);
  }, [chartRef, aligned]);

  // Other markers: drawn again over the same plot.
  useEffect(() => {
    chartRef.current?.redraw(false, false);
  }, [chartRef, markers]);

  // Showing and hiding lines (and their bands) without building the chart again.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    aligned.layout.forEach((place, index) => {
      const show = !hidden.has(index);
      if (chart.series[place.line]?.show === show) return;
      chart.setSeries(place.line, { show });
      if (place.band) {
        chart.setSeries(place.band.min, { show });
        chart.setSeries(place.band.max, { show });
      }
    });
  }, [chartRef, hidden, aligned]);

  const resetZoom = () => {
    const chart = chartRef.current;
    const xs = chart?.data[0];
    if (!chart || !xs || xs.length === 0) return;
    chart.setScale('x', { min: xs[0] as number, max: xs[xs.length - 1] as number });
  };

  const toggle = (index: number) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  const valueText = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : `${formats.value.format(value)} ${unit}`;
  const caption = unit ? `${title}, ${unit}` : title;
  const spanLabel =
    aligned.data[0].length > 0
      ? `${formats.moment.format(aligned.data[0][0])} – ${formats.moment.format(
          aligned.data[0][aligned.data[0].length - 1],
        )}`
      : '';

  return (
    <figure className={classes.figure} aria-labelledby={captionId}>
      <Group justify="space-between" align="center" gap="xs" mb="xs">
        <Text component="figcaption" id={captionId} fw={700}>
          {caption}
        </Text>
        {hasPoints && drawable && (
          <Group gap="xs">
            <Text size="xs" c="dimmed" id={hintId}>
              {t('Drag across the chart to zoom in')}
            </Text>
            <Button
              variant="default"
              size="compact-sm"
              onClick={resetZoom}
              disabled={!zoomed}
              aria-describedby={hintId}
            >
              {t('Reset zoom')}
            </Button>
          </Group>
        )}
      </Group>
      {!hasPoints ? (
        <Text
          c="dimmed"
          ta="center"
          py="xl"
          role="status"
          className={classes.empty}
          style={{ minHeight: height }}
        >
          {t('No data for this period')}
        </Text>
      ) : (
        <>
          <div
            ref={plotRef}
            role="img"
            aria-label={t('Chart “{{title}}”: {{count}} lines, {{span}}', {
              title: caption,
              count: series.length,
              span: spanLabel,
            })}
            className={classes.plot}
            style={{ minHeight: height }}
          >
            {!drawable && (
              <Text c="dimmed" ta="center" py="xl">
                {t('This browser cannot draw the chart; the table below has the same data.')}
              </Text>
            )}
          </div>
          <div className={classes.legend}>
            <Text size="sm" className={classes.cursorTime}>
              {cursor.time === null
                ? t('Point at the chart to read its values')
                : formats.moment.format(cursor.time)}
            </Text>
            <ul className={classes.entries} aria-label={t('Legend: {{title}}', { title })}>
              {series.map((one, index) => {
                const style = styles[index] ?? seriesStyle(index);
                const shown = !hidden.has(index);
                return (
                  <li key={`${index}-${one.label}`}>
                    <button
                      type="button"
                      className={classes.entry}
                      aria-pressed={shown}
                      data-hidden={!shown || undefined}
                      onClick={() => toggle(index)}
                      title={shown ? t('Hide this line') : t('Show this line')}
                    >
                      <Swatch color={style.color} dash={style.dash} />
                      <span className={classes.entryLabel}>{one.label}</span>
                      <span className={classes.entryValue}>{valueText(cursor.values[index])}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        </>
      )}
    </figure>
  );
}
