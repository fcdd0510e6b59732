import type { NormState } from '@kontrol/contracts';
import { NORM_STATES } from '@kontrol/contracts';
import { Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { useCanDraw, useUplot } from '../../../hooks/use-uplot';
import { intlLocale } from '../../../lib/format';
import type { DrawnBand } from '../template-form-values';
import { BAND_COLOURS, useTemplateLabels } from '../template-labels';
import classes from '../../../components/chart.module.css';

/** A device's current by the minute over a day (the dashboard report's columns). */
export interface CurrentSeries {
  t: readonly number[];
  mean: readonly (number | null)[];
  min: readonly (number | null)[];
  max: readonly (number | null)[];
  /** The IANA zone of the device's address: the time axis reads in it. */
  timeZone: string;
  /** The local day the chart spans (epoch ms of its first and last minute), data or not. */
  day?: { start: number; finish: number };
}

export interface NormChartProps {
  /** The caption and the image's name, e.g. "Печь 1, 22 ноября". */
  title: string;
  series: CurrentSeries;
  /** The norm bands to shade (the form's current values). */
  bands: readonly DrawnBand[];
  height?: number;
}

const LINE_COLOUR = '#343a40';
const LINE_COLOUR_DARK = '#dee2e6';

/** The top of the current axis: the day's highest reading or band, with a little headroom. */
export function axisTop(series: Pick<CurrentSeries, 'mean' | 'max'>, bands: readonly DrawnBand[]): number {
  let top = 0;
  for (const column of [series.mean, series.max]) {
    for (const value of column) if (value !== null && value > top) top = value;
  }
  for (const band of bands) if (band.max > top) top = band.max;
  return top > 0 ? top * 1.1 : 1;
}

/** How far `timeZone`'s wall clock is ahead of UTC at the moment `at` (ms). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/** The first moment of a local date (`YYYY-MM-DD`) in `timeZone`, as epoch ms. */
function zonedMidnight(year: number, month: number, day: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day);
  // Twice: the offset at midnight may differ from the offset at the guess (a daylight-saving change).
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/**
 * The local day `date` (`YYYY-MM-DD`) in `timeZone`: its first and its last minute as epoch ms
 * (23 or 25 hours long across a daylight-saving change). Exported for its tests.
 */
export function localDayRange(date: string, timeZone: string): { start: number; finish: number } {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const start = zonedMidnight(year, month, day, timeZone);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const end = zonedMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
  return { start, finish: end - 60_000 };
}

/** A band's fill: its colour, faint. */
const faint = (colour: string) => `${colour}33`;

/**
 * One device's current over a day (mean line, min–max shade) on uPlot, with the template's norm
 * bands shaded across the plot, so one sees where the current leaves the norm. The bands follow
 * `bands` as they change (the editor's unsaved values) without building the chart again. A figure
 * with a caption; the plot is an image named after it, and the legend says each band in words.
 */
export function NormChart({ title, series, bands, height = 260 }: NormChartProps) {
  const { t } = useTranslation();
  const labels = useTemplateLabels();
  const captionId = useId();
  const scheme = useComputedColorScheme('light');
  const locale = intlLocale();
  const plotRef = useRef<HTMLDivElement>(null);
  const bandsRef = useRef(bands);
  const seriesRef = useRef(series);
  useEffect(() => {
    bandsRef.current = bands;
    seriesRef.current = series;
  }, [bands, series]);
  const drawable = useCanDraw();
  const points = useMemo(() => series.mean.filter((value) => value !== null).length, [series]);
  const format = useMemo(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }), [locale]);

  const create = useMemo(() => {
    if (points === 0 || !drawable) return null;
    return (target: HTMLDivElement) => {
      const { timeZone } = series;
      const ink = getComputedStyle(target).color || (scheme === 'dark' ? '#c9c9c9' : '#212529');
      const grid = scheme === 'dark' ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.1)';
      const line = scheme === 'dark' ? LINE_COLOUR_DARK : LINE_COLOUR;
      const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone });
      const value = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
      const edge: uPlot.Series = { stroke: 'transparent', width: 0, points: { show: false } };
      return new uPlot(
        {
          width: target.clientWidth || 600,
          height,
          ms: 1,
          tzDate: (ts) => uPlot.tzDate(new Date(ts), timeZone),
          series: [
            {},
            { label: t('Current, A (mean)'), stroke: line, width: 1.5, spanGaps: false },
            { ...edge, label: t('Current, A (min)') },
            { ...edge, label: t('Current, A (max)') },
          ],
          bands: [{ series: [3, 2], fill: 'rgba(128, 128, 128, 0.2)' }],
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: {
              time: true,
              // The whole local day, so one sees when in the day the current sits where.
              range: (_u, min, max) => {
                const day = seriesRef.current.day;
                return day ? [Math.min(day.start, min), Math.max(day.finish, max)] : [min, max];
              },
            },
            y: { range: () => [0, axisTop(seriesRef.current, bandsRef.current)] },
          },
          axes: [
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              values: (_u, splits) => splits.map((split) => time.format(split)),
            },
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              label: t('A'),
              labelSize: 20,
              size: 56,
              values: (_u, splits) => splits.map((split) => value.format(split)),
            },
          ],
          hooks: {
            // Under the line: after the axes and grid, before the series.
            drawAxes: [(u) => drawBands(u, bandsRef.current)],
          },
        },
        [[...series.t], [...series.mean], [...series.min], [...series.max]] as uPlot.AlignedData,
        target,
      );
    };
  }, [series, points, drawable, height, scheme, locale, t]);
  const chartRef = useUplot({ target: plotRef, create });

  // Other bands: the same data again, so the current axis takes a band above the day's readings.
  useEffect(() => {
    const chart = chartRef.current;
    if (chart) chart.setData(chart.data, true);
  }, [chartRef, bands]);

  const caption = `${title}, ${t('A')}`;
  const bandOf = new Map(bands.map((band) => [band.state, band]));

  return (
    <figure className={classes.figure} aria-labelledby={captionId}>
      <Text component="figcaption" id={captionId} fw={700} mb="xs">
        {caption}
      </Text>
      {points === 0 ? (
        <Text
          c="dimmed"
          ta="center"
          py="xl"
          role="status"
          className={classes.empty}
          style={{ minHeight: height }}
        >
          {t('No data for this day')}
        </Text>
      ) : (
        <div
          ref={plotRef}
          role="img"
          aria-label={t('Chart “{{title}}” with the norm bands', { title: caption })}
          className={classes.plot}
          style={{ minHeight: height }}
        >
          {!drawable && (
            <Text c="dimmed" ta="center" py="xl">
              {t('This browser cannot draw the chart.')}
            </Text>
          )}
        </div>
      )}
      <ul className={classes.bands} aria-label={t('Norm bands')}>
        {NORM_STATES.map((state) => (
          <li key={state}>
            <BandSwatch state={state} />
            <span>{labels.state[state]}:</span>
            <span className={classes.figures}>
              {bandOf.has(state)
                ? t('{{min}}–{{max}} A', {
                    min: format.format(bandOf.get(state)?.min ?? 0),
                    max: format.format(bandOf.get(state)?.max ?? 0),
                  })
                : t('not set')}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function BandSwatch({ state }: { state: NormState }) {
  const colour = BAND_COLOURS[state];
  return (
    <svg width="18" height="12" aria-hidden="true" className={classes.swatch}>
      <rect
        x="0.5"
        y="0.5"
        width="17"
        height="11"
        fill={faint(colour)}
        stroke={colour}
        strokeDasharray="3 2"
      />
    </svg>
  );
}

/** Shades each band across the plot, with its edges dashed in the band's colour. */
function drawBands(u: uPlot, bands: readonly DrawnBand[]) {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  for (const band of bands) {
    const colour = BAND_COLOURS[band.state];
    const top = u.valToPos(band.max, 'y', true);
    const bottom = u.valToPos(band.min, 'y', true);
    ctx.fillStyle = faint(colour);
    ctx.fillRect(bbox.left, top, bbox.width, Math.max(bottom - top, 1));
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(bbox.left, top);
    ctx.lineTo(bbox.left + bbox.width, top);
    ctx.moveTo(bbox.left, bottom);
    ctx.lineTo(bbox.left + bbox.width, bottom);
    ctx.stroke();
  }
  ctx.restore();
}
