// Prints what matters in saved Lighthouse reports (bench/results/lhr-<date>/*.json): the score and
// its metrics, simulated and as observed in the trace, the LCP element, render-blocking resources,
// the network requests in order and the longest main-thread tasks.
//   node bench/lib/lhr-summary.mjs bench/results/lhr-<date>/login-mobile-1.json [more.json …]
import { readFileSync } from 'node:fs';

const ms = (value) => (value === undefined || value === null ? '–' : `${Math.round(value)}`);

for (const file of process.argv.slice(2)) {
  const lhr = JSON.parse(readFileSync(file, 'utf8'));
  const audit = (id) => lhr.audits[id];
  const metrics = audit('metrics')?.details?.items?.[0] ?? {};
  console.log(`\n=== ${file}`);
  console.log(
    `performance ${Math.round(lhr.categories.performance.score * 100)}; ` +
      [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'speed-index',
        'cumulative-layout-shift',
      ]
        .map(
          (id) =>
            `${id
              .split('-')
              .map((w) => w[0])
              .join('')
              .toUpperCase()} ${ms(audit(id)?.numericValue)} (${audit(id)?.score})`,
        )
        .join(', '),
  );
  console.log(
    `observed (unthrottled trace): FCP ${ms(metrics.observedFirstContentfulPaint)}, ` +
      `LCP ${ms(metrics.observedLargestContentfulPaint)}, DCL ${ms(metrics.observedDomContentLoaded)}, ` +
      `load ${ms(metrics.observedLoad)}`,
  );
  const lcpElement = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node;
  if (lcpElement)
    console.log(`LCP element: ${lcpElement.selector} — ${JSON.stringify(lcpElement.nodeLabel)}`);
  const lcpPhases = audit('largest-contentful-paint-element')?.details?.items?.[1]?.items;
  if (lcpPhases) console.log(`LCP phases: ${lcpPhases.map((p) => `${p.phase} ${ms(p.timing)}`).join(', ')}`);
  const blocking = audit('render-blocking-resources')?.details?.items ?? [];
  if (blocking.length)
    console.log(
      `render-blocking: ${blocking.map((b) => `${b.url.replace(/^https?:\/\/[^/]+/, '')} ${ms(b.wastedMs)} ms`).join(', ')}`,
    );
  console.log('network (start–end ms, priority, type, transferred bytes):');
  for (const r of audit('network-requests')?.details?.items ?? []) {
    console.log(
      `  ${ms(r.networkRequestTime)}–${ms(r.networkEndTime)} ${r.priority} ${r.resourceType} ${r.transferSize} ` +
        `${r.url.replace(/^https?:\/\/[^/]+/, '')}`,
    );
  }
  const tasks = audit('long-tasks')?.details?.items ?? [];
  console.log(
    `long tasks (simulated ms): ${tasks.map((t) => `${ms(t.startTime)}+${ms(t.duration)} ${t.url.replace(/^https?:\/\/[^/]+/, '')}`).join('; ')}`,
  );
  const bootup = audit('bootup-time')?.details?.items ?? [];
  console.log(
    `script cost (simulated ms: total / evaluation / parse+compile): ${bootup
      .map(
        (b) =>
          `${b.url.replace(/^https?:\/\/[^/]+/, '')} ${ms(b.total)}/${ms(b.scripting)}/${ms(b.scriptParseCompile)}`,
      )
      .join('; ')}`,
  );
  const work = audit('mainthread-work-breakdown')?.details?.items ?? [];
  console.log(
    `main thread (simulated ms): ${work.map((w) => `${w.groupLabel} ${ms(w.duration)}`).join(', ')}`,
  );
}
