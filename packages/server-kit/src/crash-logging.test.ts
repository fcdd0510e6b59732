import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { crashHandlers } from './crash-logging.js';

describe('crash logging', () => {
  function capture() {
    const lines: Record<string, unknown>[] = [];
    const exits: number[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    return { lines, exits, handlers: crashHandlers('worker', stream, (code) => exits.push(code)) };
  }

  it('an uncaught exception is logged as fatal with its stack, origin, process and role, then the process exits 1', () => {
    const { lines, exits, handlers } = capture();
    handlers.uncaughtException(new TypeError('boom'), 'uncaughtException');
    expect(exits).toEqual([1]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 60,
      msg: 'uncaught exception; exiting',
      pid: process.pid,
      role: 'worker',
      origin: 'uncaughtException',
      err: { type: 'TypeError', message: 'boom' },
    });
    expect((lines[0]!.err as { stack: string }).stack).toContain('crash-logging.test.ts');
  });

  it('an unhandled rejection, of an error or of any value', () => {
    const { lines, exits, handlers } = capture();
    handlers.unhandledRejection(new Error('lost'));
    handlers.unhandledRejection('a string');
    expect(exits).toEqual([1, 1]);
    expect(lines[0]).toMatchObject({
      level: 60,
      msg: 'unhandled promise rejection; exiting',
      err: { message: 'lost' },
    });
    expect(lines[1]).toMatchObject({ level: 60, err: 'a string' });
  });
});
