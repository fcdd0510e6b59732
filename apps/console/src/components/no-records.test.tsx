import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import { NoRecords } from './no-records';

afterEach(async () => {
  await setLocale('ru');
});

describe('NoRecords', () => {
  it('says that an empty list is empty, in the interface language', async () => {
    const { rerender } = render(
      <MantineProvider>
        <NoRecords />
      </MantineProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Записей не найдено');
    await setLocale('en');
    rerender(
      <MantineProvider>
        <NoRecords />
      </MantineProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('No records found');
  });
});
