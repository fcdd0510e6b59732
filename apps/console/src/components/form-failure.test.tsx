import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../lib/i18n';
import { FormFailure } from './form-failure';

const show = (failure: Parameters<typeof FormFailure>[0]['failure'], fields: string[] = ['email']) =>
  render(
    <MantineProvider>
      <FormFailure failure={failure} fields={fields} />
    </MantineProvider>,
  );

afterEach(async () => {
  await setLocale('ru');
});

describe('FormFailure', () => {
  it('puts field errors under "Please fix the following errors", listing those of fields the form does not show', () => {
    show({
      kind: 'validation',
      message: 'x',
      errors: { email: ['Неверный e-mail'], token: ['Ссылка устарела'] },
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(alert).toHaveTextContent('Ссылка устарела');
    // The e-mail message belongs under its field, not in the alert.
    expect(alert).not.toHaveTextContent('Неверный e-mail');
  });

  it('shows the connection error text of docs/contract.md, "Error catalogue"', () => {
    show({ kind: 'connection' });
    expect(screen.getByRole('alert')).toHaveTextContent('Ошибка подключения. Повторите попытку позже');
  });

  it("shows the server's own message for other failures", () => {
    show({ kind: 'http', status: 429, message: 'Слишком много попыток входа.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Слишком много попыток входа.');
  });

  it('speaks English when English is chosen', async () => {
    await setLocale('en');
    show({ kind: 'connection' });
    expect(screen.getByRole('alert')).toHaveTextContent('Connection error. Please try again later');
    expect(localStorage.getItem('locale')).toBe('en');
  });

  it('shows nothing without a failure', () => {
    show(null);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
