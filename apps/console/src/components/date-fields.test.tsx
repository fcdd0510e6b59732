import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import { DateField, DateTimeField, parseTypedDate, parseTypedMoment } from './date-fields';

afterEach(async () => {
  await setLocale('ru');
});

/** A field holding its own value, reporting every change. */
function Harness({
  kind,
  initial,
  changes,
}: {
  kind: 'date' | 'moment';
  initial: string;
  changes: string[];
}) {
  const [value, setValue] = useState(initial);
  const onChange = (next: string) => {
    changes.push(next);
    setValue(next);
  };
  return (
    <MantineProvider env="test">
      {kind === 'date' ? (
        <DateField label="Дата" value={value} onChange={onChange} />
      ) : (
        <DateTimeField label="Начало" value={value} onChange={onChange} />
      )}
    </MantineProvider>
  );
}

describe('date and time fields in the interface language', { timeout: 30_000 }, () => {
  it('read typed dates and moments as the language writes them, or ISO', () => {
    expect(parseTypedDate('27.11.2026')).toBe('2026-11-27');
    expect(parseTypedDate('1/2/2027')).toBe('2027-02-01');
    expect(parseTypedDate('2026-11-27')).toBe('2026-11-27');
    expect(parseTypedDate('31.02.2026')).toBeNull();
    expect(parseTypedDate('27.11.20')).toBeNull();
    expect(parseTypedMoment('27.11.2026 09:05')).toBe('2026-11-27 09:05:00');
    expect(parseTypedMoment('2026-11-27T21:30')).toBe('2026-11-27 21:30:00');
    expect(parseTypedMoment('27.11.2026 9:00 AM')).toBeNull();
    expect(parseTypedMoment('27.11.2026 24:00')).toBeNull();
  });

  it('show a Russian date as 27.11.2026 with a Russian calendar, and take one typed so', async () => {
    const changes: string[] = [];
    render(<Harness kind="date" initial="2026-11-27" changes={changes} />);
    const input = screen.getByRole('textbox', { name: 'Дата' });
    expect(input).toHaveValue('27.11.2026');
    await userEvent.click(input);
    // The calendar speaks Russian and starts its weeks on Monday.
    expect(await screen.findByText('ноябрь 2026')).toBeInTheDocument();
    expect(screen.getAllByText(/^(пн|Пн)$/)[0]).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '01.12.2026');
    expect(changes.at(-1)).toBe('2026-12-01');
  });

  it('show an English date as 27/11/2026, never 11/27/2026', async () => {
    await act(() => setLocale('en'));
    render(<Harness kind="date" initial="2026-11-27" changes={[]} />);
    expect(screen.getByRole('textbox', { name: 'Дата' })).toHaveValue('27/11/2026');
  });

  it('show a moment on a 24-hour clock, and keep its time when a day is picked', async () => {
    const changes: string[] = [];
    render(<Harness kind="moment" initial="2026-11-27T21:30" changes={changes} />);
    const input = screen.getByRole('textbox', { name: 'Начало' });
    expect(input).toHaveValue('27.11.2026 21:30');
    await userEvent.click(input);
    await userEvent.click(await screen.findByRole('button', { name: /^3 ноября 2026/ }));
    expect(changes.at(-1)).toBe('2026-11-03T21:30');
    await userEvent.clear(input);
    await userEvent.type(input, '04.11.2026 07:45');
    expect(changes.at(-1)).toBe('2026-11-04T07:45');
  });
});
