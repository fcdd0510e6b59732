import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createXlsxSheet } from './xlsx-stream.js';

describe('an xlsx sheet that fails mid-stream', () => {
  it('ends its download with the error, and nothing else throws', async () => {
    const sheet = createXlsxSheet({ sheetName: 'Rows', headers: ['a', 'b'] });
    const errors: Error[] = [];
    sheet.stream.on('error', (error: Error) => errors.push(error));
    sheet.stream.resume();
    await sheet.addRows([['x', 1]]);
    sheet.fail(new Error('the database went away'));
    // An error left on an inner stream would surface as an uncaught exception here (Vitest fails on it).
    await sleep(50);
    expect(errors.map((error) => error.message)).toEqual(['the database went away']);
    expect(sheet.stream.destroyed).toBe(true);
  });
});
