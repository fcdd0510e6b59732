import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { REGULAR, buildOrganisation, renderBilling, serveBilling } from '../test/fixtures';

afterEach(() => queryClient.clear());

/** Answers `POST /api/users/update_organization` with `answer`, keeping the bodies sent. */
function serveUpdate(answer: (body: Record<string, unknown>) => Response) {
  const sent: Record<string, unknown>[] = [];
  server.use(
    http.post('/api/users/update_organization', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

/** Replaces a field's text (a paste: quick on a busy machine). */
async function replace(label: string | RegExp, text: string) {
  const field = screen.getByRole('textbox', { name: label });
  await userEvent.clear(field);
  if (text) {
    field.focus();
    await userEvent.paste(text);
  }
  return field;
}

describe('the billing page: organisation tab', { timeout: 30_000 }, () => {
  it('checks the INN by its control digit before sending, and says so under the field', async () => {
    serveBilling({ organisation: buildOrganisation() });
    const sent = serveUpdate(() => HttpResponse.json({ data: buildOrganisation() }));
    await renderBilling('/account/billing?tab=organisation');
    await screen.findByRole('textbox', { name: /Полное наименование/ });

    const inn = await replace(/^ИНН/, '7707083894');
    await replace(/^БИК/, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(inn).toHaveAttribute('aria-invalid', 'true');
    expect(inn).toHaveAccessibleDescription(
      expect.stringContaining('ИНН — 10 цифр для организации или 12 для ИП; контрольная цифра не сходится.'),
    );
    expect(screen.getByRole('textbox', { name: /^БИК/ })).toHaveAccessibleDescription(
      expect.stringContaining('БИК — 9 цифр, начинается с 04.'),
    );
    // The first field in error takes the focus; nothing was sent.
    await waitFor(() => expect(inn).toHaveFocus());
    expect(sent).toEqual([]);
  });

  it('saves filled details, and shows the server’s 422 messages under their fields', async () => {
    serveBilling({ organisation: null });
    let refuse = true;
    const sent = serveUpdate((body) =>
      refuse
        ? HttpResponse.json(
            {
              message: 'Проверьте введённые данные.',
              errors: {
                settlement_account: ['Расчётный счёт — 20 цифр и должен соответствовать БИК банка.'],
              },
            },
            { status: 422 },
          )
        : HttpResponse.json({ data: { ...body, updated_at: '2026-11-24T10:00:00.000Z' } }),
    );
    await renderBilling('/account/billing?tab=organisation');
    await screen.findByRole('textbox', { name: /Полное наименование/ });

    await replace(/Полное наименование/, 'ООО «Кафе на Тверской»');
    await replace(/^ИНН/, '7707083893');
    await replace(/^КПП/, '773601001');
    await replace(/ОГРН \/ ОГРНИП/, '1027700132195');
    await replace(/Юридический адрес/, 'г. Москва, ул. Вавилова, д. 19');
    await replace(/Наименование банка/, 'ПАО Сбербанк');
    await replace(/^БИК/, '044525225');
    await replace(/Корреспондентский счёт/, '30101810400000000225');
    await replace(/Расчётный счёт/, '40702810638000000000');
    await replace(/Руководитель/, 'Иванов Иван Иванович');
    await replace(/E-mail для документов/, 'buh@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));

    const settlement = screen.getByRole('textbox', { name: /Расчётный счёт/ });
    await waitFor(() => expect(settlement).toHaveAttribute('aria-invalid', 'true'));
    expect(settlement).toHaveAccessibleDescription(
      expect.stringContaining('Расчётный счёт — 20 цифр и должен соответствовать БИК банка.'),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Исправьте следующие ошибки');
    expect(sent[0]).toEqual({
      legal_name: 'ООО «Кафе на Тверской»',
      inn: '7707083893',
      kpp: '773601001',
      ogrn: '1027700132195',
      legal_address: 'г. Москва, ул. Вавилова, д. 19',
      postal_address: null,
      bank_name: 'ПАО Сбербанк',
      bik: '044525225',
      correspondent_account: '30101810400000000225',
      settlement_account: '40702810638000000000',
      director: 'Иванов Иван Иванович',
      accountant: null,
      documents_email: 'buh@example.test',
    });

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await screen.findByText('Сохранено.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(settlement).not.toHaveAttribute('aria-invalid', 'true');
    expect(sent).toHaveLength(2);
  });

  it('shows the details read-only to a non-admin', async () => {
    serveBilling({ organisation: buildOrganisation() });
    await renderBilling('/account/billing?tab=organisation', REGULAR);
    const inn = await screen.findByRole('textbox', { name: /^ИНН/ });
    expect(inn).toHaveValue('7707083893');
    expect(inn).toHaveAttribute('readonly');
    expect(
      screen.getByText('Изменять реквизиты могут только администраторы организации.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Сохранить реквизиты' })).toBeNull();
  });

  it('tells a non-admin when the details are not filled', async () => {
    serveBilling({ organisation: null });
    await renderBilling('/account/billing?tab=organisation', REGULAR);
    const note = await screen.findByText(/Реквизиты организации ещё не заполнены/);
    expect(
      within(note.closest('[role="note"]') as HTMLElement).getByText(/только администраторы/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^ИНН/ })).toBeNull();
  });
});
