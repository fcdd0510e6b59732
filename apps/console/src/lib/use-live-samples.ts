import type { TelemetryAnswer } from '@kontrol/contracts';
import { useEffect, useState } from 'react';
import { liveStream, type LiveSeries } from './live-stream';

/** The samples a device sent since a chart's data was read: times and one column per value. */
export interface LiveTail {
  t: number[];
  values: Record<string, (number | null)[]>;
}

const NO_TAILS: ReadonlyMap<number, LiveTail> = new Map();

function appendTo(tails: ReadonlyMap<number, LiveTail>, series: readonly LiveSeries[]) {
  const next = new Map(tails);
  for (const one of series) {
    const tail = next.get(one.device_id) ?? { t: [], values: {} };
    const grown: LiveTail = { t: [...tail.t], values: { ...tail.values } };
    one.t.forEach((ts, index) => {
      if (ts <= (grown.t.at(-1) ?? -Infinity)) return;
      grown.t.push(ts);
      for (const [name, column] of Object.entries(one.values))
        grown.values[name] = [...(grown.values[name] ?? []), column[index] ?? null];
    });
    next.set(one.device_id, grown);
  }
  return next;
}

/**
 * The new samples of `deviceIds` as they arrive over the live stream (docs/live-updates.md), while
 * `enabled` (a chart whose period reaches the present). They start again from nothing whenever
 * `since` changes: pass the chart's data, so a reload's points are not drawn twice.
 */
export function useLiveSamples(
  deviceIds: readonly number[],
  enabled: boolean,
  since: unknown,
): ReadonlyMap<number, LiveTail> {
  const [tails, setTails] = useState(NO_TAILS);
  const key = deviceIds.join(',');
  useEffect(() => setTails(NO_TAILS), [since, key, enabled]);
  useEffect(() => {
    if (!enabled || key === '') return;
    return liveStream.subscribe({
      samplesOf: key.split(',').map(Number),
      onSamples: (series) => setTails((previous) => appendTo(previous, series)),
    });
  }, [enabled, key]);
  return tails;
}

/** How far apart a resolution's points are: a live sample joins a chart only after its last bucket. */
const BUCKET_MS: Record<TelemetryAnswer['data']['resolution'], number> = {
  raw: 1,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/**
 * The answer as the charts draw it while following the present: each device's live samples that
 * came after its last point (its last bucket, for rollups) appended, and the period stretched to
 * the newest of them. Values the samples do not carry (a bucket's min and max) are left empty.
 */
export function withLiveTails(
  answer: TelemetryAnswer['data'],
  tails: ReadonlyMap<number, LiveTail>,
): TelemetryAnswer['data'] {
  if (tails.size === 0) return answer;
  const bucket = BUCKET_MS[answer.resolution];
  let finish = answer.finish;
  const series = answer.series.map((one) => {
    const tail = tails.get(one.device_id);
    if (!tail) return one;
    const after = (one.t.at(-1) ?? answer.start - bucket) + bucket;
    const from = tail.t.findIndex((ts) => ts >= after);
    if (from < 0) return one;
    const added = tail.t.slice(from);
    finish = Math.max(finish, (added.at(-1) ?? 0) + 1);
    const values: Record<string, (number | null)[]> = {};
    for (const [name, column] of Object.entries(one.values))
      values[name] = [...column, ...(tail.values[name]?.slice(from) ?? added.map(() => null))];
    return { ...one, t: [...one.t, ...added], values };
  });
  return { ...answer, finish, series };
}
