import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * A time field (components/time-field.tsx) as a reader finds it: a group named by its label,
 * holding an hours and a minutes field.
 */
export const timeGroup = (name: string) => screen.getByRole('group', { name });

/** What a time field shows, hours and minutes joined as a clock writes them (`18:30`). */
export function shownTime(name: string): string {
  return within(timeGroup(name))
    .getAllByRole('spinbutton')
    .map((field) => (field as HTMLInputElement).value)
    .join(':');
}

/** The time field's hours, where a reader starts typing and where its messages are read out. */
export const hoursField = (name: string) =>
  within(timeGroup(name)).getByRole('spinbutton', { name: `${name}, часы` });

/** Types a time (`HH:MM`) into a time field as a person does: digits only, hours first. */
export async function typeTime(user: UserEvent, name: string, time: string): Promise<void> {
  await user.click(hoursField(name));
  await user.keyboard(time.replace(':', ''));
}
