// Where the console's start-up CPU time goes: starts the real server (test-support/server.mjs), loads a
// page in Chromium with the CPU slowed down 4× (as Lighthouse's mobile simulation assumes) and
// prints the long tasks and the functions that took the most time (V8's sampling profiler), by
// script. Not a budget, a magnifying glass for one.
//   node bench/lib/cpu-profile.mjs [login|dashboard] [runs]
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, withoutLiveStream } from '../../test-support/chromium.mjs';
import { apiLogin, buildIfNeeded, seedFixtures, startServer } from '../../test-support/server.mjs';

const which = process.argv[2] ?? 'login';
const runs = Number(process.argv[3] ?? 1);
/**
 * The main thread's tasks of 50 ms or more, each with the time of its parts (style, layout, script
 * evaluation, …: the events nested one level below the task, by name) — where a long task goes.
 */
function printTasks(events) {
  // The renderer main thread that ran the page's scripts (other renderers may be traced too).
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (m) =>
    events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'EvaluateScript').length;
  const main = mains.sort((a, b) => count(b) - count(a))[0];
  const onMain = events.filter((e) => e.pid === main?.pid && e.tid === main?.tid && e.ph === 'X');
  const navigation =
    events.filter((e) => e.name === 'navigationStart' && e.pid === main?.pid).at(-1)?.ts ?? 0;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur >= 50_000);
  const scripted = tasks.filter((t) =>
    onMain.some((e) => e.name === 'FunctionCall' && e.ts >= t.ts && e.ts <= t.ts + t.dur),
  );
  const longest = scripted.sort((a, b) => b.dur - a.dur)[0];
  for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
    const end = task.ts + task.dur;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= end);
    const parts = new Map();
    for (const event of inside) {
      // Count an event once, at the outermost level of its name (a nested FunctionCall is not added again).
      const outer = inside.some(
        (o) =>
          o !== event && o.name === event.name && o.ts <= event.ts && o.ts + o.dur >= event.ts + event.dur,
      );
      if (!outer) parts.set(event.name, (parts.get(event.name) ?? 0) + event.dur);
    }
    const top = [...parts]
      .filter(([, dur]) => dur >= 2000)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 9)
      .map(([name, dur]) => `${name} ${Math.round(dur / 1000)}`)
      .join(', ');
    const url = inside.find((e) => e.args?.data?.url)?.args.data.url?.replace(/^https?:\/\/[^/]+/, '') ?? '';
    console.log(
      `  task at ${Math.round((task.ts - navigation) / 1000)} ms, ${Math.round(task.dur / 1000)} ms ${url}: ${top}`,
    );
  }
  return longest && { from: longest.ts, to: longest.ts + longest.dur };
}

buildIfNeeded();
const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  let cookies;
  if (which === 'dashboard') {
    const logins = seedFixtures({ databaseUrl: server.databaseUrl });
    cookies = (await apiLogin(server.baseURL, logins.admin)).cookies;
  }
  for (let run = 0; run < runs; run++) {
    const context = await withoutLiveStream(
      await browser.newContext({ locale: 'ru-RU', viewport: { width: 412, height: 823 } }),
    );
    if (cookies) await context.addCookies(cookies.map((c) => ({ ...c, url: server.baseURL })));
    await context.addInitScript(() => {
      globalThis.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          globalThis.__longTasks.push({
            start: Math.round(entry.startTime),
            duration: Math.round(entry.duration),
          });
      }).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'blink',
        'loading',
      ],
    });
    await page.goto(`${server.baseURL}/${which === 'dashboard' ? 'account/dashboard' : 'auth/login'}`);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const { profile } = await cdp.send('Profiler.stop');
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
    const window = printTasks(trace.traceEvents);
    const paints = await page.evaluate(() =>
      Object.fromEntries(
        [
          ...performance.getEntriesByType('paint'),
          ...performance.getEntriesByType('largest-contentful-paint'),
        ].map((e) => [e.name || e.entryType, Math.round(e.startTime)]),
      ),
    );
    const tasks = await page.evaluate(() => globalThis.__longTasks);
    console.log(`\n=== ${which} run ${run + 1} (CPU 4×, network unthrottled)`);
    console.log(`paints: ${JSON.stringify(paints)}`);
    console.log(
      `long tasks: ${tasks.map((t) => `${t.start}+${t.duration}`).join(', ')}; blocking ${tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0)} ms`,
    );
    // Self time per function and per script.
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map();
    const deltas = profile.timeDeltas;
    profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (deltas[index + 1] ?? 0)));
    const perFunction = new Map();
    const perScript = new Map();
    for (const [id, micros] of self) {
      const { callFrame } = byId.get(id);
      const script =
        callFrame.url.replace(/^https?:\/\/[^/]+/, '') || `(${callFrame.functionName || 'native'})`;
      const name = `${callFrame.functionName || '(anonymous)'} ${script}:${callFrame.lineNumber}:${callFrame.columnNumber}`;
      perFunction.set(name, (perFunction.get(name) ?? 0) + micros);
      perScript.set(script, (perScript.get(script) ?? 0) + micros);
    }
    const top = (map, n) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, micros]) => `  ${(micros / 1000).toFixed(1)} ms  ${name}`)
        .join('\n');
    console.log(`self time by script:\n${top(perScript, 12)}`);
    console.log(`self time by function:\n${top(perFunction, 25)}`);
    // Inclusive time: every function on a sample's stack gets the sample once.
    const parent = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const inclusive = new Map();
    const inWindow = new Map();
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      at += profile.timeDeltas[index];
      if (window && at >= window.from && at <= window.to)
        inWindow.set(id, (inWindow.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
    });
    const only = process.env.PROFILE_LONGEST === '1';
    if (only) console.log('(inclusive times: only the longest scripted task)');
    for (const [id, micros] of only ? inWindow : self) {
      const names = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const { callFrame } = byId.get(at);
        if (callFrame.url)
          names.add(
            `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^https?:\/\/[^/]+/, '')}:${callFrame.lineNumber}`,
          );
      }
      for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
    console.log(`inclusive time by function:\n${top(inclusive, Number(process.env.PROFILE_TOP ?? 40))}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
