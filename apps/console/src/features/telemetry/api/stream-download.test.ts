import { describe, expect, it } from 'vitest';
import { fileNameOf } from './stream-download';

describe('the file name of a download', () => {
  it('prefers the UTF-8 name, then the plain one', () => {
    expect(
      fileNameOf(
        `attachment; filename="_____2026.xlsx"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82_2026.xlsx`,
      ),
    ).toBe('отчёт_2026.xlsx');
    expect(fileNameOf('attachment; filename="telemetry_2026-11-21_2026-11-22.csv"')).toBe(
      'telemetry_2026-11-21_2026-11-22.csv',
    );
    expect(fileNameOf('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
