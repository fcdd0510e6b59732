import { describe, expect, it } from 'vitest';
import { createXlsxSheet } from './xlsx-stream.js';

describe('an xlsx sheet that fails mid-stream', () => {
  it('ends its download with the error, and nothing else throws', async () => {
    const sheet = await createXlsxSheet({ sheetName: 'Rows', headers: ['a', 'b'] });
    const errors: Error[] = [];
    sheet.stream.on('error', (error: Error) => errors.push(error));
    const closed = new Promise<void>((resolve) => sheet.stream.once('close', () => resolve()));
    sheet.stream.resume();
    await sheet.addRows([['x', 1]]);
    sheet.fail(new Error('the database went away'));
    // fail() destroys the inner streams before the download, so their events come first: an error
    // among them, unheard, has been thrown by now (Vitest fails on it).
    await closed;
    expect(errors.map((error) => error.message)).toEqual(['the database went away']);
    expect(sheet.stream.destroyed).toBe(true);
  });
});
