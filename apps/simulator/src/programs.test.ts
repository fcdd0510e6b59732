import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { PROGRAMS_PATH, crcHex, type ProgramsCommand } from '@kontrol/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDevices } from './fleet.js';
import { createProgramDevice, type ProgramDevice } from './programs.js';

/** Kontrol's program routes, standing in: files by bind id for one credential, and the reports. */
async function startProgramServer(files: Map<number, Buffer>, credential = 'kdc_one') {
  const reports: Array<{ bindId: number; body: unknown }> = [];
  const downloads: number[] = [];
  let failDownloads = 0;
  const handle = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const answer = (status: number, payload?: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    if (request.headers.authorization !== `Bearer ${credential}`) return answer(401);
    const match = new RegExp(`^${PROGRAMS_PATH}/(\\d+)(/report)?$`).exec(request.url ?? '');
    if (!match) return answer(404);
    const bindId = Number(match[1]);
    if (match[2]) {
      reports.push({ bindId, body: JSON.parse(body) as unknown });
      return answer(200, { data: {} });
    }
    downloads.push(bindId);
    if (failDownloads > 0) {
      failDownloads -= 1;
      return answer(503);
    }
    const file = files.get(bindId);
    if (!file) return answer(404);
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(file);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reports,
    downloads,
    failNextDownloads(count: number) {
      failDownloads = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const FILES = new Map([
  [11, Buffer.from('{"format":"kontrol-program/1","recipe":1}\n{"step":1}\n', 'utf8')],
  [12, Buffer.from('{"format":"kontrol-program/1","recipe":2,"name":"Хлеб"}\n', 'utf8')],
]);
const crcOf = (bytes: Buffer) => crcHex(crc32(bytes));

function command(id: string, install: number[], remove: Array<[number, string]> = []): ProgramsCommand {
  return {
    type: 'programs',
    id,
    set: { id: 5, crc: '01234567' },
    install: install.map((bindId) => ({
      bind_id: bindId,
      recipe_id: bindId - 10,
      file: `r${bindId - 10}-v1.kpf`,
      crc: crcOf(FILES.get(bindId) ?? Buffer.alloc(0)),
      size: FILES.get(bindId)?.length ?? 0,
      url: `${PROGRAMS_PATH}/${bindId}`,
    })),
    remove: remove.map(([bindId, file]) => ({ bind_id: bindId, file })),
  };
}

let server: Awaited<ReturnType<typeof startProgramServer>> | undefined;
let device: ProgramDevice | undefined;
afterEach(async () => {
  await device?.stop();
  await server?.close();
  device = undefined;
  server = undefined;
});

async function start(rate: number | (() => number), seed = 1) {
  server = await startProgramServer(FILES);
  device = createProgramDevice({
    controllerId: 'KC-1',
    credential: 'kdc_one',
    baseUrl: server.url,
    failureRate: typeof rate === 'number' ? () => rate : rate,
    seed,
    retryInitialMs: 5,
  });
  return { server, device };
}

describe('a device taking programs', () => {
  it('downloads with its credential, stores the bytes, reports their CRC; removes and reports removed', async () => {
    const { server, device } = await start(0);
    device.handle(command('c1', [11, 12]));
    await device.idle();
    expect(server.reports).toEqual([
      { bindId: 11, body: { crc: crcOf(FILES.get(11) as Buffer) } },
      { bindId: 12, body: { crc: crcOf(FILES.get(12) as Buffer) } },
    ]);
    expect(
      device
        .files()
        .get('r1-v1.kpf')
        ?.equals(FILES.get(11) as Buffer),
    ).toBe(true);
    expect(
      device
        .files()
        .get('r2-v1.kpf')
        ?.equals(FILES.get(12) as Buffer),
    ).toBe(true);

    // The same command again (a redelivery) is not handled twice; removal comes before install.
    device.handle(command('c1', [11, 12]));
    device.handle(command('c2', [], [[11, 'r1-v1.kpf']]));
    await device.idle();
    expect(server.downloads).toEqual([11, 12]);
    expect(server.reports.slice(2)).toEqual([{ bindId: 11, body: { removed: true } }]);
    expect([...device.files().keys()]).toEqual(['r2-v1.kpf']);
    expect(device.counters()).toEqual({ commands: 2, stored: 2, corrupted: 0, removed: 1, failures: 0 });
  });

  it('with a failure rate of 1 stores every file with one byte flipped, so the CRC it reports differs', async () => {
    const { server, device } = await start(1);
    device.handle(command('c1', [11, 12]));
    await device.idle();
    for (const [bindId, file] of [
      [11, 'r1-v1.kpf'],
      [12, 'r2-v1.kpf'],
    ] as const) {
      const original = FILES.get(bindId) as Buffer;
      const stored = device.files().get(file) as Buffer;
      expect(stored.length).toBe(original.length);
      expect([...stored].filter((byte, index) => byte !== original[index])).toHaveLength(1);
      const report = server.reports.find((entry) => entry.bindId === bindId)?.body as { crc: string };
      expect(report.crc).toBe(crcOf(stored));
      expect(report.crc).not.toBe(crcOf(original));
    }
    expect(device.counters()).toMatchObject({ stored: 2, corrupted: 2 });
  });

  it('corrupts the same files on every run for a rate between 0 and 1, and reads the rate at each file', async () => {
    const runs: boolean[][] = [];
    for (let run = 0; run < 2; run += 1) {
      const started = await start(0.5, 7);
      for (let i = 0; i < 20; i += 1) started.device.handle(command(`c${i}`, [11 + (i % 2)]));
      await started.device.idle();
      runs.push(
        started.server.reports.map(
          (entry) => (entry.body as { crc: string }).crc !== crcOf(FILES.get(entry.bindId) as Buffer),
        ),
      );
      await started.device.stop();
      await started.server.close();
      server = undefined;
      device = undefined;
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]?.filter(Boolean).length).toBeGreaterThan(3);
    expect(runs[0]?.filter(Boolean).length).toBeLessThan(17);

    let rate = 1;
    const { server: live, device: changing } = await start(() => rate);
    changing.handle(command('a', [11]));
    await changing.idle();
    rate = 0;
    changing.handle(command('b', [11]));
    await changing.idle();
    expect(
      live.reports.map((entry) => (entry.body as { crc: string }).crc === crcOf(FILES.get(11) as Buffer)),
    ).toEqual([false, true]);
  });

  it('retries a download that meets a 5xx, and reports download_failed when it never succeeds', async () => {
    const { server, device } = await start(0);
    server.failNextDownloads(2);
    device.handle(command('c1', [11]));
    await device.idle();
    expect(server.downloads).toEqual([11, 11, 11]);
    expect(server.reports).toEqual([{ bindId: 11, body: { crc: crcOf(FILES.get(11) as Buffer) } }]);

    server.failNextDownloads(3);
    device.handle(command('c2', [12]));
    await device.idle();
    expect(server.reports.at(-1)).toEqual({ bindId: 12, body: { error: 'download_failed' } });
    expect(device.counters().failures).toBe(1);
    expect(device.files().has('r2-v1.kpf')).toBe(false);
  });

  it('ignores commands that are not valid programs commands', async () => {
    const { server, device } = await start(0);
    device.handle({ type: 'ping' });
    device.handle({ type: 'programs', id: 'x' });
    device.handle('programs');
    await device.idle();
    expect(server.downloads).toEqual([]);
    expect(device.counters().commands).toBe(0);
  });
});

describe('the devices file', () => {
  it('takes a per-device program_failure_rate from 0 to 1', () => {
    const base = { controller_id: 'KC-1', credential: 'kdc_one', type: 'combi_oven' };
    expect(parseDevices([{ ...base, program_failure_rate: 0.25 }])[0]?.programFailureRate).toBe(0.25);
    expect(() => parseDevices([{ ...base, program_failure_rate: 2 }])).toThrow(/program_failure_rate/);
    expect(() => parseDevices([{ ...base, program_failure_rate: '1' }])).toThrow(/program_failure_rate/);
  });
});
