import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { buildLedgerEntry, pageOf, renderBilling, serveBilling } from '../test/fixtures';

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
/** The first or the last moment of a local date, as the tab sends it. */
const localIso = (date: string, time: string) => new Date(`${date}T${time}`).toISOString();

describe('the billing page: history tab', { timeout: 30_000 }, () => {
  it('lists the ledger with signed, coloured amounts, the balance after each entry and test money marked', async () => {
    serveBilling({
      ledger: () =>
        pageOf([
          buildLedgerEntry({
            id: 2,
            kind: 'payment',
            amount: 150_000,
            balance_after: 153_000,
            description: 'Оплата онлайн, платёж № 12',
            test_money: true,
          }),
          buildLedgerEntry({ id: 1, kind: 'charge', amount: -3_000, balance_after: 3_000 }),
        ]),
    });
    await renderBilling('/account/billing?tab=history');
    const table = await screen.findByRole('table', { name: 'История баланса' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const payment = rows[1] as HTMLElement;
    expect(within(payment).getByText('Платёж')).toBeInTheDocument();
    expect(within(payment).getByText('Оплата онлайн, платёж № 12')).toBeInTheDocument();
    const credit = within(payment).getByText('+1 500,00 ₽', { normalizer: plain });
    expect(credit.className).toMatch(/credit/);
    expect(within(payment).getByText('1 530,00 ₽', { normalizer: plain })).toBeInTheDocument();
    const charge = rows[2] as HTMLElement;
    expect(within(charge).getByText('Списание')).toBeInTheDocument();
    expect(within(charge).getByText('-30,00 ₽', { normalizer: plain }).className).toMatch(/debit/);
    // Money nobody paid (the sandbox's) is marked beside its kind; real money is not.
    expect(within(payment).getByText('Тестовые деньги')).toBeInTheDocument();
    expect(within(charge).queryByText('Тестовые деньги')).toBeNull();
  });

  it('sends the page and the filters from the address as docs/contract.md, "Entities" has them, and keeps changes there', async () => {
    const asked = serveBilling({ ledger: () => pageOf([buildLedgerEntry()], 2, 3, 60) });
    const { router } = await renderBilling(
      '/account/billing?tab=history&kind=payment,charge&from=2026-11-01&to=2026-11-30&page=2',
    );
    await screen.findByRole('table', { name: 'История баланса' });
    const filters = {
      kind: { operator: 'in', value: ['payment', 'charge'] },
      created_at: {
        operator: 'between',
        value: [localIso('2026-11-01', '00:00:00.000'), localIso('2026-11-30', '23:59:59.999')],
      },
    };
    expect(asked.ledger[0]).toEqual({ page: 2, per_page: 25, filters });
    expect(screen.getByLabelText('С')).toHaveValue('01.11.2026');
    expect(screen.getByLabelText('По')).toHaveValue('30.11.2026');
    expect(screen.getByText('Найдено: 60')).toBeInTheDocument();

    // Another page: the same filters.
    await userEvent.click(screen.getByRole('button', { name: 'Страница 3' }));
    await waitFor(() => expect(asked.ledger.at(-1)).toEqual({ page: 3, per_page: 25, filters }));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('3');

    // Another kind: back to the first page, the kinds in the address.
    await userEvent.click(screen.getByRole('combobox', { name: 'Операции' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Возврат' }));
    await waitFor(() =>
      expect(asked.ledger.at(-1)).toEqual({
        page: 1,
        per_page: 25,
        filters: { ...filters, kind: { operator: 'in', value: ['payment', 'charge', 'refund'] } },
      }),
    );
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('kind')).toBe('payment,charge,refund');
    expect(params.get('page')).toBeNull();

    // Only a start: `>=`; no filters at all: none sent.
    await userEvent.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    await waitFor(() => expect(asked.ledger.at(-1)).toEqual({ page: 1, per_page: 25 }));
    await userEvent.type(screen.getByLabelText('С'), '10.11.2026');
    await waitFor(() =>
      expect(asked.ledger.at(-1)).toEqual({
        page: 1,
        per_page: 25,
        filters: { created_at: { operator: '>=', value: localIso('2026-11-10', '00:00:00.000') } },
      }),
    );
  });

  it('exports the history with the same filters as CSV', async () => {
    serveBilling();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/users/balance_log/csv', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return new HttpResponse('\uFEFFДата;Операция\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="balance-history.csv"',
          },
        });
      }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:csv');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    await renderBilling('/account/billing?tab=history&kind=refund');
    await screen.findByRole('table', { name: 'История баланса' });
    await userEvent.click(screen.getByRole('button', { name: 'Экспорт CSV' }));
    await waitFor(() => expect(saved).toEqual(['balance-history.csv']));
    expect(JSON.parse(asked[0]?.get('filters') ?? 'null')).toEqual({
      kind: { operator: 'in', value: ['refund'] },
    });
  });

  it('shows the server’s refusal of an export', async () => {
    serveBilling();
    server.use(
      http.get('/api/users/balance_log/csv', () =>
        HttpResponse.json({ message: 'Недостаточно прав для этого действия.' }, { status: 403 }),
      ),
    );
    await renderBilling('/account/billing?tab=history');
    await screen.findByRole('table', { name: 'История баланса' });
    await userEvent.click(screen.getByRole('button', { name: 'Экспорт CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Недостаточно прав для этого действия.');
  });

  it('says "No records found" when nothing matches', async () => {
    serveBilling({ ledger: () => pageOf([]) });
    await renderBilling('/account/billing?tab=history');
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
  });
});
