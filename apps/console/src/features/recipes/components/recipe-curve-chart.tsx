import { Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { useCanDraw, useUplot } from '../../../hooks/use-uplot';
import { intlLocale } from '../../../lib/format';
import { useFormatSpan, type RecipeLabels } from '../recipe-labels';
import { ASSUMED_CORE_STEP_SECONDS, type CurveSegment, type PlannedCurve } from '../recipe-model';
import classes from '../../../components/chart.module.css';

const LINE = '#e8590c';
const LINE_DARK = '#ff922b';
/** The shade of a core-probe step's assumed span (the line's hue, faint). */
const ASSUMED_FILL = 'rgba(134, 142, 150, 0.25)';
const ASSUMED_EDGE = '#868e96';

/**
 * The curve as uPlot's aligned data: each drawn step's start with its temperature, and the end of
 * the last one holding it, drawn as steps (the cabinet holds the set temperature for the step).
 * Steps that take no time yet are left out. Exported for its tests.
 */
export function curveData(curve: PlannedCurve): uPlot.AlignedData {
  const drawn = curve.segments.filter((segment) => segment.end > segment.start);
  const xs = drawn.map((segment) => segment.start);
  const ys = drawn.map((segment) => segment.temperature);
  const last = drawn[drawn.length - 1];
  if (last) {
    xs.push(last.end);
    ys.push(last.temperature);
  }
  return [xs, ys];
}

/** The temperature axis: the curve's range with some room, and 0 °C always in sight. */
function temperatureRange(segments: readonly CurveSegment[]): [number, number] {
  const values = segments.flatMap((segment) => (segment.temperature === null ? [] : [segment.temperature]));
  if (values.length === 0) return [0, 100];
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  return [low < 0 ? low - 10 : 0, high + 10];
}

/** Shades the core-probe steps' spans (their length is assumed), edged with dashes. */
function drawAssumed(u: uPlot, segments: readonly CurveSegment[]) {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  for (const segment of segments) {
    if (!segment.assumed || segment.end <= segment.start) continue;
    const left = u.valToPos(segment.start, 'x', true);
    const right = u.valToPos(segment.end, 'x', true);
    ctx.fillStyle = ASSUMED_FILL;
    ctx.fillRect(left, bbox.top, Math.max(right - left, 1), bbox.height);
    ctx.strokeStyle = ASSUMED_EDGE;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(left, bbox.top);
    ctx.lineTo(left, bbox.top + bbox.height);
    ctx.moveTo(right, bbox.top);
    ctx.lineTo(right, bbox.top + bbox.height);
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * The planned cabinet temperature over the recipe's time, as the form stands (uPlot): each step
 * holds its set temperature for its time; core-probe steps, whose length the probe decides, are
 * drawn {@link ASSUMED_CORE_STEP_SECONDS} long and shaded as assumed. The chart takes every edit
 * without being built again. A figure with a caption; beside the image, the same curve in words.
 */
export function RecipeCurveChart({
  curve,
  labels,
  height = 220,
}: {
  curve: PlannedCurve;
  labels: RecipeLabels;
  height?: number;
}) {
  const { t } = useTranslation();
  const formatSpan = useFormatSpan();
  const captionId = useId();
  const summaryId = useId();
  const scheme = useComputedColorScheme('light');
  const plotRef = useRef<HTMLDivElement>(null);
  const curveRef = useRef(curve);
  const drawable = useCanDraw();
  const data = useMemo(() => curveData(curve), [curve]);
  const dataRef = useRef(data);
  useEffect(() => {
    curveRef.current = curve;
    dataRef.current = data;
  }, [curve, data]);
  const hasCurve = data[0].length > 1;
  const locale = intlLocale();

  // The chart is built again only for these; the data goes in through setData below.
  const create = useMemo(() => {
    if (!hasCurve || !drawable) return null;
    return (target: HTMLDivElement) => {
      const ink = getComputedStyle(target).color || (scheme === 'dark' ? '#c9c9c9' : '#212529');
      const grid = scheme === 'dark' ? 'rgba(255,255,255,0.12)' : 'rgba(0,0,0,0.1)';
      const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
      return new uPlot(
        {
          width: target.clientWidth || 600,
          height,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          series: [
            {},
            {
              label: t('Cabinet, °C'),
              stroke: scheme === 'dark' ? LINE_DARK : LINE,
              width: 2,
              spanGaps: false,
              paths: uPlot.paths.stepped?.({ align: 1 }),
              points: { show: false },
            },
          ],
          scales: {
            x: { time: false, range: (_u, min, max) => [0, Math.max(max, min + 60)] },
            y: { range: () => temperatureRange(curveRef.current.segments) },
          },
          axes: [
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              label: t('min'),
              labelSize: 20,
              // Ticks on whole minutes.
              incrs: [60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400],
              values: (_u, splits) => splits.map((split) => number.format(split / 60)),
            },
            {
              stroke: ink,
              grid: { stroke: grid, width: 1 },
              ticks: { stroke: grid, width: 1 },
              label: '°C',
              labelSize: 20,
              size: 56,
              values: (_u, splits) => splits.map((split) => number.format(split)),
            },
          ],
          hooks: { drawAxes: [(u) => drawAssumed(u, curveRef.current.segments)] },
        },
        dataRef.current,
        target,
      );
    };
  }, [hasCurve, drawable, height, scheme, locale, t]);
  const chartRef = useUplot({ target: plotRef, create });

  // Every edit of the form: the new curve, the axes fitted to it.
  useEffect(() => {
    chartRef.current?.setData(data, true);
  }, [chartRef, data]);

  const timed = curve.total - curve.assumed;
  const clock = (seconds: number) =>
    `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

  return (
    <figure className={classes.figure} aria-labelledby={captionId}>
      <Text component="figcaption" id={captionId} fw={700} mb="xs">
        {t('Planned temperature')}
      </Text>
      {hasCurve ? (
        <div
          ref={plotRef}
          role="img"
          aria-label={t('Chart of the planned cabinet temperature over {{time}}', {
            time: formatSpan(curve.total),
          })}
          aria-describedby={summaryId}
          className={classes.plot}
          style={{ minHeight: height }}
        >
          {!drawable && (
            <Text c="dimmed" ta="center" py="xl">
              {t('This browser cannot draw the chart.')}
            </Text>
          )}
        </div>
      ) : (
        <Text
          c="dimmed"
          ta="center"
          py="xl"
          role="status"
          className={classes.empty}
          style={{ minHeight: height }}
        >
          {t('Give a step a time to see the curve.')}
        </Text>
      )}
      <Text size="sm" mt="xs" id={summaryId} role="status" aria-live="polite">
        {curve.assumed > 0
          ? t('Planned time: {{total}}, of which {{assumed}} assumed for core-probe steps.', {
              total: formatSpan(curve.total),
              assumed: formatSpan(curve.assumed),
            })
          : t('Planned time: {{total}}.', { total: formatSpan(timed) })}
      </Text>
      {curve.assumed > 0 && (
        <Text size="xs" c="dimmed" className={classes.note}>
          <svg width="18" height="12" aria-hidden="true" className={classes.swatch}>
            <rect
              x="0.5"
              y="0.5"
              width="17"
              height="11"
              fill={ASSUMED_FILL}
              stroke={ASSUMED_EDGE}
              strokeDasharray="3 2"
            />
          </svg>
          {t(
            'Shaded: a step that ends at a core temperature, drawn {{length}} long; the probe decides its real length.',
            { length: formatSpan(ASSUMED_CORE_STEP_SECONDS) },
          )}
        </Text>
      )}
      <ul className={classes.steps} aria-label={t('The curve by step')}>
        {curve.segments.map((segment) => (
          <li key={segment.number}>
            {t('Step {{number}}, {{mode}}: {{temperature}} from {{start}} to {{end}}', {
              number: segment.number,
              mode: labels.mode[segment.mode],
              temperature: segment.temperature === null ? '—' : `${segment.temperature} °C`,
              start: clock(segment.start),
              end: clock(segment.end),
            })}
            {segment.assumed ? ` (${t('assumed length')})` : ''}
          </li>
        ))}
      </ul>
    </figure>
  );
}
