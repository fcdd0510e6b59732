import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installCanvas } from '../test/canvas';
import '../lib/i18n';
import uPlot from 'uplot';
import {
  alignSeries,
  MIN_TEMPERATURE_SPAN,
  TelemetryChart,
  timeTicks,
  valueRange,
  type TelemetryChartSeries,
} from './telemetry-chart';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-22T08:00:00Z');

function renderChart(
  series: TelemetryChartSeries[],
  extra: { range?: { start: number; finish: number } } = {},
) {
  return render(
    <MantineProvider env="test">
      <TelemetryChart title="Ток" unit="А" series={series} gapMs={5 * MINUTE} {...extra} />
    </MantineProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('alignSeries: the devices on one time axis', () => {
  it('joins the devices’ times, breaks long gaps and spans the period', () => {
    const { data, layout, points } = alignSeries(
      [
        { label: 'A', t: [T0, T0 + MINUTE, T0 + 20 * MINUTE], values: [1, 2, 3] },
        { label: 'B', t: [T0 + MINUTE], values: [5], min: [4], max: [6] },
        { label: 'C', t: [], values: [] },
      ],
      5 * MINUTE,
      { start: T0 - MINUTE, finish: T0 + 30 * MINUTE },
    );
    expect(points).toBe(4);
    expect(data[0]).toEqual([
      T0 - MINUTE,
      T0,
      T0 + MINUTE,
      T0 + MINUTE + 1,
      T0 + 20 * MINUTE,
      T0 + 30 * MINUTE,
    ]);
    // A: its values, a null where the gap is (the line breaks), nothing at the period's ends.
    expect(data[layout[0]?.line ?? -1]).toEqual([undefined, 1, 2, null, 3, undefined]);
    // B: its line and its band, at its one time only.
    expect(data[layout[1]?.line ?? -1]).toEqual([undefined, undefined, 5, undefined, undefined, undefined]);
    expect(data[layout[1]?.band?.min ?? -1]?.[2]).toBe(4);
    expect(data[layout[1]?.band?.max ?? -1]?.[2]).toBe(6);
    // C has no point at all: a column of nothing, so the legend still lists it.
    expect(data[layout[2]?.line ?? -1]).toEqual(new Array(6).fill(undefined));
  });
});

describe('timeTicks: the time axis’s labels', () => {
  const HOUR = 60 * MINUTE;
  /** uPlot as the labels read it: the time scale's span. */
  const axis = (min: number, max: number) => ({ scales: { x: { min, max } } }) as unknown as uPlot;

  it('reads times only across a day, so the labels at its ends are no wider than the rest', () => {
    // A local day, as the dashboard's graph spans it: midnight to midnight.
    const start = new Date(2026, 10, 27).getTime();
    const finish = new Date(2026, 10, 28).getTime();
    const splits = Array.from({ length: 13 }, (_, i) => start + i * 2 * HOUR);
    splits[12] = finish;
    const labels = timeTicks('ru')(axis(start, finish), splits, 0, 50, 2 * HOUR);
    expect(labels[0]).toBe('00:00');
    expect(labels[1]).toBe('02:00');
    expect(labels[12]).toBe('00:00');
    expect(labels.every((label) => /^\d{2}:\d{2}$/.test(label))).toBe(true);
  });

  it('names a midnight by its date alone across several days, and whole days by their dates', () => {
    const start = new Date(2026, 10, 26, 12).getTime();
    const finish = new Date(2026, 10, 29).getTime();
    const ticks = timeTicks('ru');
    const labels = ticks(axis(start, finish), [start, new Date(2026, 10, 27).getTime()], 0, 50, 12 * HOUR);
    expect(labels).toEqual(['12:00', '27 нояб.']);
    expect(ticks(axis(start, finish), [new Date(2026, 10, 28).getTime()], 0, 50, 24 * HOUR)).toEqual([
      '28 нояб.',
    ]);
  });
});

describe('valueRange: the value axis', () => {
  it('never spans less than its least span: a steady temperature is drawn flat', () => {
    // 29.9–30.1 °C would fill the whole height with a fifth of a degree.
    const [low, high] = valueRange(29.9, 30.1, MIN_TEMPERATURE_SPAN);
    expect(low).toBeCloseTo(29, 9);
    expect(high).toBeCloseTo(31, 9);
    expect(MIN_TEMPERATURE_SPAN).toBe(2);
    // Without a value, the least span from zero.
    expect(valueRange(null, null, 2)).toEqual([0, 2]);
  });

  it('keeps uPlot’s own range when it is wide enough', () => {
    expect(valueRange(20, 180, 2)).toEqual(uPlot.rangeNum(20, 180, 0.1, true));
  });
});

describe('TelemetryChart', () => {
  it('is a figure named by its caption, saying when there is nothing to draw', () => {
    renderChart([{ label: 'Печь 1', t: [T0], values: [null] }]);
    const figure = screen.getByRole('figure', { name: 'Ток, А' });
    expect(within(figure).getByRole('status')).toHaveTextContent('Нет данных за этот период');
    expect(within(figure).queryByRole('img')).toBeNull();
  });

  it('draws on a canvas inside a named image, with a legend that hides and shows lines', async () => {
    installCanvas();
    renderChart(
      [
        { label: 'Печь 1', t: [T0, T0 + MINUTE], values: [10, 12] },
        { label: 'Печь 2', t: [T0, T0 + MINUTE], values: [3, 4] },
      ],
      { range: { start: T0, finish: T0 + 10 * MINUTE } },
    );
    const image = screen.getByRole('img', { name: /^График «Ток, А»: линий — 2, / });
    // uPlot draws in a task of its own, after the render that mounted the chart.
    await waitFor(() => expect(image.querySelector('canvas')).not.toBeNull());
    expect(screen.getByText('Наведите указатель на график, чтобы увидеть значения')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сбросить масштаб' })).toBeDisabled();
    const entry = screen.getByRole('button', { name: /Печь 2/ });
    expect(entry).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(entry);
    expect(entry).toHaveAttribute('aria-pressed', 'false');
    expect(entry).toHaveAttribute('title', 'Показать эту линию');
    await userEvent.click(entry);
    expect(entry).toHaveAttribute('aria-pressed', 'true');
  });

  it('takes new data for the same lines without building the chart again', async () => {
    installCanvas();
    // The chart is built in a timer of its own: run here, so any build asked for has happened.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const build = () => act(() => vi.runOnlyPendingTimersAsync());
    const line = (values: number[]): TelemetryChartSeries[] => [
      { label: 'Печь 1', t: values.map((_, i) => T0 + i * MINUTE), values },
    ];
    const chart = (series: TelemetryChartSeries[]) => (
      <MantineProvider env="test">
        <TelemetryChart title="Ток" unit="А" series={series} />
      </MantineProvider>
    );
    const { rerender } = render(chart(line([1, 2])));
    await build();
    const canvas = screen.getByRole('img').querySelector('canvas');
    expect(canvas).not.toBeNull();
    rerender(chart(line([1, 2])));
    rerender(chart(line([1, 2, 3])));
    await build();
    expect(screen.getByRole('img', { name: /линий — 1/ }).querySelector('canvas')).toBe(canvas);
    // Another line: another chart.
    rerender(chart([...line([1, 2, 3]), { label: 'Печь 2', t: [T0], values: [4] }]));
    await build();
    const drawn = screen.getByRole('img', { name: /линий — 2/ }).querySelector('canvas');
    expect(drawn).not.toBeNull();
    expect(drawn).not.toBe(canvas);
  });

  it('in a browser that cannot draw, says so and keeps the legend', () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    renderChart([{ label: 'Печь 1', t: [T0], values: [10] }]);
    expect(
      screen.getByText('Этот браузер не может нарисовать график; те же данные есть в таблице ниже.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Печь 1/ })).toBeInTheDocument();
  });
});
