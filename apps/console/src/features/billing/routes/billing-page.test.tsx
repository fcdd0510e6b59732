import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { browserWindow } from '../api/create-payment';
import {
  REGULAR,
  SANDBOX_PAYMENT,
  buildBalance,
  buildDocument,
  buildPayment,
  renderBilling,
  serveBilling,
} from '../test/fixtures';

afterEach(async () => {
  queryClient.clear();
  vi.restoreAllMocks();
  await setLocale('ru');
});

/** Text with its no-break spaces (Intl's group separator) made plain. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('the billing page: balance tab (docs/contract.md)', { timeout: 30_000 }, () => {
  it('shows the balance in roubles, the forecast and the tariff, and an admin’s actions', async () => {
    serveBilling({ balance: buildBalance({ balance: 1_234_567, days_left: 411 }) });
    await renderBilling();

    expect(await screen.findByRole('tab', { name: 'Баланс', selected: true })).toBeInTheDocument();
    const figure = await screen.findByText((_, element) => element?.hasAttribute('data-balance') ?? false);
    expect(plain(figure.textContent)).toBe('12 345,67 ₽');
    expect(figure.className).not.toMatch(/debit/);
    expect(screen.getByText('При текущем тарифе баланса хватит примерно на 411 дн.')).toBeInTheDocument();
    const tariff = screen.getByRole('list', { name: 'Тариф' });
    expect(plain(tariff.textContent)).toContain('Тариф: 10,00 ₽ за умное устройство в сутки');
    expect(plain(tariff.textContent)).toContain('Умных устройств: 3');
    expect(plain(tariff.textContent)).toContain('Списывается в сутки: 30,00 ₽ (10,00 ₽ × 3)');

    expect(screen.getByRole('button', { name: 'Пополнить' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Выставить счёт' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Акт за месяц' })).toBeInTheDocument();
    // No documents and no payments yet: each list says so, as every empty list does (docs/contract.md, "Validation and errors shown").
    await waitFor(() => expect(screen.getAllByText('Записей не найдено')).toHaveLength(2));
    expect(screen.getByRole('heading', { level: 2, name: 'Документы' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Онлайн-платежи' })).toBeInTheDocument();
  });

  it('shows a negative balance in red, and says when it is spent or nothing is charged', async () => {
    serveBilling({ balance: buildBalance({ balance: -45_000, days_left: 0 }) });
    const { unmount } = await renderBilling();
    const figure = await screen.findByText((_, element) => element?.hasAttribute('data-balance') ?? false);
    expect(plain(figure.textContent)).toBe('-450,00 ₽');
    expect(figure.className).toMatch(/debit/);
    expect(
      screen.getByText('Баланс исчерпан: пополните его, чтобы сервис продолжал работать.'),
    ).toBeInTheDocument();
    unmount();
    queryClient.clear();

    serveBilling({ balance: buildBalance({ smart_devices: 0, daily_charge: 0, days_left: null }) });
    await renderBilling();
    expect(await screen.findByText('Сейчас ничего не списывается.')).toBeInTheDocument();
  });

  it('shows a non-admin no payment buttons, only who pays', async () => {
    serveBilling();
    await renderBilling('/account/billing', REGULAR);
    expect(
      await screen.findByText(
        'Пополнять баланс и выставлять счета и акты могут только администраторы организации.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Пополнить' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Выставить счёт' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Акт за месяц' })).toBeNull();
  });

  it('keeps the tab in the address and moves between tabs with the keyboard', async () => {
    serveBilling();
    const { router } = await renderBilling();
    const balanceTab = await screen.findByRole('tab', { name: 'Баланс', selected: true });
    await userEvent.click(screen.getByRole('tab', { name: 'История' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=history'));
    expect(await screen.findByRole('table', { name: 'История баланса' })).toBeInTheDocument();

    // Arrow keys move between the tabs (Mantine's tablist); the choice goes to the address.
    screen.getByRole('tab', { name: 'История' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=organisation'));
    // Rendered, not only in the router's location: a click on the tab the page still shows as
    // current changes nothing.
    expect(await screen.findByRole('tab', { name: 'Организация', selected: true })).toHaveFocus();
    await userEvent.click(balanceTab);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('tops up: checks the amount, sends kopecks and goes to the provider’s page', async () => {
    serveBilling({ balance: buildBalance({ top_up: SANDBOX_PAYMENT }) });
    const sent: unknown[] = [];
    const payment = buildPayment({ id: 12, amount: 150_050 });
    server.use(
      http.post('/api/payment/create', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ data: payment }, { status: 201 });
      }),
    );
    const assign = vi.spyOn(browserWindow, 'assign').mockImplementation(() => undefined);
    await renderBilling();

    // The sandbox is the provider: its money is test money, and the page says so everywhere.
    expect(
      await screen.findByText(
        'Онлайн-оплата работает в тестовом режиме: деньги не списываются, а зачисленное отмечается как тестовые деньги.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Пополнить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Пополнение баланса' });
    expect(within(dialog).getByText('Тестовый режим')).toBeInTheDocument();
    const amount = within(dialog).getByRole('textbox', { name: /Сумма, ₽/ });

    // Below the minimum: said under the field (as the server would say it), nothing sent.
    await userEvent.type(amount, '50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Перейти к оплате' }));
    expect(
      await within(dialog).findByText('Сумма — от 100 до 1 000 000 ₽.', { normalizer: plain }),
    ).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);

    // A suggested amount fills the field; then roubles with kopecks.
    await userEvent.click(within(dialog).getByRole('button', { name: /^5\s000\s₽$/ }));
    expect(plain((amount as HTMLInputElement).value)).toBe('5 000');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1500,5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Перейти к оплате' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(payment.confirmation_url));
    expect(sent).toEqual([{ amount: 150_050 }]);
  });

  it('without an online payment provider, says so in ru and en and tops up by invoice instead', async () => {
    serveBilling();
    const online: unknown[] = [];
    const invoices: unknown[] = [];
    server.use(
      http.post('/api/payment/create', async ({ request }) => {
        online.push(await request.json());
        return HttpResponse.json({ message: 'no' }, { status: 409 });
      }),
      http.post('/api/payment/invoice/create', async ({ request }) => {
        invoices.push(await request.json());
        return HttpResponse.json(
          { data: buildDocument({ number: '2026-7', amount: 300_000 }) },
          { status: 201 },
        );
      }),
    );
    const { unmount } = await renderBilling();
    expect(
      await screen.findByText(
        'Онлайн-оплата недоступна: баланс пополняется по счёту, оплаченному банковским переводом.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Пополнить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Пополнение баланса' });
    expect(within(dialog).getByText('Онлайн-оплата недоступна')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Пополните баланс по счёту: выставьте его здесь и оплатите банковским переводом — баланс пополнится, когда платёж поступит.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Перейти к оплате' })).toBeNull();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Сумма, ₽/ }), '3000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(dialog).findByText('Счёт выставлен')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Скачать счёт (PDF)' })).toBeInTheDocument();
    expect(invoices).toEqual([{ amount: 300_000 }]);
    expect(online).toEqual([]);
    unmount();
    queryClient.clear();

    await setLocale('en');
    serveBilling();
    await renderBilling();
    expect(
      await screen.findByText(
        'Online payment is not available: the balance is topped up by invoice, paid by bank transfer.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Top up' }));
    const english = await screen.findByRole('dialog', { name: 'Top up the balance' });
    expect(within(english).getByText('Online payment is not available')).toBeInTheDocument();
    expect(within(english).getByRole('button', { name: 'Issue the invoice' })).toBeInTheDocument();
  });

  it('checks the amount against the limits the server gives', async () => {
    serveBilling({
      balance: buildBalance({ top_up: { ...SANDBOX_PAYMENT, min_amount: 500_00, max_amount: 20_000_00 } }),
    });
    const sent: unknown[] = [];
    server.use(
      http.post('/api/payment/create', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ data: buildPayment() }, { status: 201 });
      }),
    );
    await renderBilling();
    await userEvent.click(await screen.findByRole('button', { name: 'Пополнить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Пополнение баланса' });
    expect(within(dialog).getByText('От 500 ₽ до 20 000 ₽.', { normalizer: plain })).toBeInTheDocument();
    // Only the common amounts within the limits are offered.
    const common = within(dialog).getByRole('group', { name: 'Частые суммы' });
    expect(
      within(common)
        .getAllByRole('button')
        .map((button) => plain(button.textContent)),
    ).toEqual(['1 000 ₽', '5 000 ₽', '10 000 ₽']);
    const amount = within(dialog).getByRole('textbox', { name: /Сумма, ₽/ });
    for (const typed of ['499,99', '20000,01']) {
      await userEvent.clear(amount);
      await userEvent.type(amount, typed);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Перейти к оплате' }));
      expect(
        await within(dialog).findByText('Сумма — от 500 до 20 000 ₽.', { normalizer: plain }),
      ).toBeInTheDocument();
    }
    expect(sent).toEqual([]);
  });

  it('back from the provider (?payment=): waits for the outcome, then says it went through and reloads the balance', async () => {
    const asked = serveBilling();
    let calls = 0;
    server.use(
      http.get('/api/payment/payments/12', () => {
        calls += 1;
        const status = calls === 1 ? 'pending' : 'succeeded';
        return HttpResponse.json({
          data: buildPayment({
            id: 12,
            status,
            completed_at: status === 'succeeded' ? '2026-11-24T09:01:00Z' : null,
          }),
        });
      }),
    );
    const { router } = await renderBilling('/account/billing?payment=12');

    expect(
      await screen.findByText('Ждём подтверждения платежа № 12 от платёжного сервиса…'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Оплата получена', {}, { timeout: 8_000 })).toBeInTheDocument();
    expect(
      screen.getByText('Платёж № 12 на 1 500,00 ₽ прошёл: баланс пополнен.', { normalizer: plain }),
    ).toBeInTheDocument();
    // The balance, payments and documents are read again once the payment is settled.
    await waitFor(() => expect(asked.balance).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(asked.payments).toBeGreaterThanOrEqual(2));

    await userEvent.click(screen.getByRole('button', { name: 'Закрыть сообщение' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByText('Оплата получена')).toBeNull());
  });

  it('back from a declined payment: says it did not go through', async () => {
    serveBilling();
    server.use(
      http.get('/api/payment/payments/13', () =>
        HttpResponse.json({
          data: buildPayment({ id: 13, amount: 200_000, status: 'failed', confirmation_url: null }),
        }),
      ),
    );
    await renderBilling('/account/billing?payment=13');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Платёж не прошёл')).toBeInTheDocument();
    expect(
      within(alert).getByText('Платёж № 13 на 2 000,00 ₽ отклонён, баланс не изменился.', {
        normalizer: plain,
      }),
    ).toBeInTheDocument();
  });

  it('lists documents with their download links, and payments with their status', async () => {
    serveBilling({
      documents: [
        buildDocument(),
        buildDocument({
          id: 4,
          kind: 'act',
          number: '2026-2',
          date: '2026-10-31',
          amount: 90_000,
          period: '2026-10',
          status: 'issued',
          download_url: '/api/payment/documents/4/pdf',
        }),
      ],
      payments: [buildPayment({ id: 12, status: 'succeeded', confirmation_url: null })],
    });
    await renderBilling();
    const documents = await screen.findByRole('table', { name: 'Документы' });
    const link = within(documents).getByRole('link', { name: 'Скачать: Счёт № 2026-5 (PDF)' });
    expect(link).toHaveAttribute('href', '/api/payment/documents/3/pdf');
    expect(link).toHaveAttribute('download');
    expect(within(documents).getByText('Акт, октябрь 2026 г.')).toBeInTheDocument();
    expect(within(documents).getByText('2 000,00 ₽', { normalizer: plain })).toBeInTheDocument();
    expect(within(documents).getAllByText('Выставлен')).toHaveLength(2);
    const payments = screen.getByRole('table', { name: 'Онлайн-платежи' });
    expect(within(payments).getByText('№ 12')).toBeInTheDocument();
    expect(within(payments).getByText('Оплачен')).toBeInTheDocument();
  });

  it('issues an invoice, or says the organisation’s details are missing and leads to them', async () => {
    serveBilling();
    let filled = false;
    const sent: unknown[] = [];
    server.use(
      http.post('/api/payment/invoice/create', async ({ request }) => {
        sent.push(await request.json());
        if (!filled) {
          return HttpResponse.json(
            {
              message: 'Проверьте введённые данные.',
              errors: { organization: ['Сначала заполните реквизиты организации на вкладке «Организация».'] },
            },
            { status: 422 },
          );
        }
        return HttpResponse.json({ data: buildDocument({ number: '2026-6' }) }, { status: 201 });
      }),
    );
    const { router } = await renderBilling();
    await userEvent.click(await screen.findByRole('button', { name: 'Выставить счёт' }));
    let dialog = await screen.findByRole('dialog', { name: 'Выставить счёт' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Сумма, ₽/ }), '2000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Выставить счёт' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(
      within(alert).getByText('Сначала заполните реквизиты организации на вкладке «Организация».'),
    ).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('link', { name: 'Заполнить реквизиты организации' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=organisation'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The router's location changes before the page renders it: a click on «Баланс» while the page
    // still shows that tab as the current one changes nothing.
    expect(await screen.findByRole('tab', { name: 'Организация', selected: true })).toBeInTheDocument();

    filled = true;
    await userEvent.click(screen.getByRole('tab', { name: 'Баланс' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Выставить счёт' }));
    dialog = await screen.findByRole('dialog', { name: 'Выставить счёт' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Сумма, ₽/ }), '2000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(dialog).findByText('Счёт выставлен')).toBeInTheDocument();
    expect(within(dialog).getByText(/Счёт № 2026-6 от/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Скачать счёт (PDF)' })).toHaveAttribute(
      'href',
      '/api/payment/documents/3/pdf',
    );
    expect(sent).toEqual([{ amount: 200_000 }, { amount: 200_000 }]);
  });

  it('makes the act of an ended month with charges, or gives the one made before', async () => {
    serveBilling();
    const periods: unknown[] = [];
    server.use(
      // September had no charges: it is not offered.
      http.get('/api/payment/act/periods', () =>
        HttpResponse.json({ data: { periods: ['2026-10', '2026-08'] } }),
      ),
      http.post('/api/payment/act/create', async ({ request }) => {
        const body = (await request.json()) as { period: string };
        periods.push(body);
        const document = buildDocument({
          kind: 'act',
          number: '2026-9',
          period: body.period,
          amount: 93_000,
        });
        return HttpResponse.json({ data: document }, { status: periods.length === 1 ? 201 : 200 });
      }),
    );
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-24T12:00:00Z'));
    await renderBilling();
    await userEvent.click(await screen.findByRole('button', { name: 'Акт за месяц' }));
    const dialog = await screen.findByRole('dialog', { name: 'Акт за месяц' });
    // The latest month with charges is chosen; only months with charges are offered.
    const month = await within(dialog).findByRole('combobox', { name: /Месяц/ });
    expect(month).toHaveValue('октябрь 2026 г.');
    fireEvent.click(month);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'октябрь 2026 г.',
      'август 2026 г.',
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сформировать акт' }));
    expect(await within(dialog).findByText('Акт готов')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Скачать акт (PDF)' })).toBeInTheDocument();
    // Asked again for the same month: the act made before.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Акт за месяц' }));
    const again = await screen.findByRole('dialog', { name: 'Акт за месяц' });
    await userEvent.click(within(again).getByRole('button', { name: 'Сформировать акт' }));
    expect(await within(again).findByText('Акт за этот месяц уже был составлен')).toBeInTheDocument();
    expect(periods).toEqual([{ period: '2026-10' }, { period: '2026-10' }]);
  });

  it('says so when no ended month has charges, and offers no month', async () => {
    serveBilling();
    server.use(http.get('/api/payment/act/periods', () => HttpResponse.json({ data: { periods: [] } })));
    await renderBilling();
    await userEvent.click(await screen.findByRole('button', { name: 'Акт за месяц' }));
    const dialog = await screen.findByRole('dialog', { name: 'Акт за месяц' });
    expect(
      await within(dialog).findByText(
        'Ни в одном закончившемся месяце ещё не было начислений — акт составлять не за что.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: /Месяц/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Сформировать акт' })).toBeNull();
    // The dialog's own button (the header's cross has the same name).
    const close = within(dialog).getAllByRole('button', { name: 'Закрыть' }).at(-1);
    if (!close) throw new Error('no close button');
    await userEvent.click(close);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
