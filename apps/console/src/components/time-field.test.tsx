import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import { DateField } from './date-fields';
import { TimeField } from './time-field';

afterEach(async () => {
  await setLocale('ru');
});

/** A time and a date field holding their own values, reporting every change. */
function Harness({ time, date, changes }: { time: string; date: string; changes: string[] }) {
  const [timeValue, setTime] = useState(time);
  const [dateValue, setDate] = useState(date);
  return (
    <MantineProvider env="test">
      <TimeField
        label="Начало смены"
        value={timeValue}
        onChange={(next) => {
          changes.push(next);
          setTime(next);
        }}
        error="Укажите время."
      />
      <DateField label="Дата" value={dateValue} onChange={setDate} />
      <output>{`${timeValue}|${dateValue}`}</output>
    </MantineProvider>
  );
}

/** What the field shows: its hours and minutes as read, joined the way a clock writes them. */
function shownTime(name: string): string {
  const group = screen.getByRole('group', { name });
  return within(group)
    .getAllByRole('spinbutton')
    .map((field) => (field as HTMLInputElement).value)
    .join(':');
}

describe('the time field', { timeout: 30_000 }, () => {
  it('shows a Russian page 18:30 on a 24-hour clock, the date as 27.11.2026, and keeps both values', () => {
    render(<Harness time="18:30" date="2026-11-27" changes={[]} />);
    expect(shownTime('Начало смены')).toBe('18:30');
    // No AM/PM anywhere: neither a field nor a word.
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(document.body.textContent).not.toMatch(/AM|PM/);
    expect(screen.getByRole('spinbutton', { name: 'Начало смены, часы' })).toHaveValue('18');
    expect(screen.getByRole('spinbutton', { name: 'Начало смены, минуты' })).toHaveValue('30');
    expect(screen.getByRole('textbox', { name: 'Дата' })).toHaveValue('27.11.2026');
    expect(screen.getByRole('status')).toHaveTextContent('18:30|2026-11-27');
  });

  it('keeps the 24-hour clock on an English page', async () => {
    await act(() => setLocale('en'));
    render(<Harness time="21:05" date="2026-11-27" changes={[]} />);
    expect(shownTime('Начало смены')).toBe('21:05');
    expect(screen.getByRole('spinbutton', { name: 'Начало смены, hours' })).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/AM|PM/);
  });

  it('takes a time typed on the keyboard as HH:MM', async () => {
    const changes: string[] = [];
    render(<Harness time="22:00" date="" changes={changes} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('spinbutton', { name: 'Начало смены, часы' }));
    await user.keyboard('0730');
    expect(shownTime('Начало смены')).toBe('07:30');
    expect(changes.at(-1)).toBe('07:30');
    // Arrow keys step it too.
    await user.keyboard('{ArrowUp}');
    expect(changes.at(-1)).toBe('07:31');
  });

  it('takes a time pasted whole', () => {
    const changes: string[] = [];
    render(<Harness time="" date="" changes={changes} />);
    fireEvent.paste(screen.getByRole('spinbutton', { name: 'Начало смены, часы' }), {
      clipboardData: { getData: () => '18:30' },
    });
    expect(changes).toEqual(['18:30']);
    expect(shownTime('Начало смены')).toBe('18:30');
  });

  it('reads its error out from both fields', () => {
    render(<Harness time="18:30" date="" changes={[]} />);
    for (const name of ['Начало смены, часы', 'Начало смены, минуты']) {
      const field = screen.getByRole('spinbutton', { name });
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription('Укажите время.');
    }
  });
});
